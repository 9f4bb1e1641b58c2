import { type ModelProvider, NoProviderError } from '../agent/index.js';
import type { TwinlineConfig } from '../config/index.js';
import type { Telemetry } from '../telemetry/index.js';
import { providerSource } from './provider-source.js';

/**
 * A fresh model provider per request or task run (`PlatformOptions.model`, else `TWINLINE_MODEL`,
 * else the config's model; undefined when none is configured), wrapped as the options ask and,
 * with telemetry, traced and measured turn by turn.
 */
export function lineModels(
  config: TwinlineConfig,
  env: Readonly<Record<string, string | undefined>>,
  options: {
    readonly model?: string | undefined;
    readonly wrapProvider?: ((provider: ModelProvider) => ModelProvider) | undefined;
    readonly telemetry?: Telemetry | undefined;
  },
): () => ModelProvider | undefined {
  const source = providerSource(options.model ?? env.TWINLINE_MODEL, env, config.model);
  const { wrapProvider, telemetry } = options;
  return () => {
    let p = source();
    if (p && wrapProvider) p = wrapProvider(p);
    return p && telemetry ? telemetry.provider(p) : p;
  };
}

/** A provider that fails at once: no model is configured (the deep line then degrades). */
export function unavailableProvider(): ModelProvider {
  return {
    kind: 'none',
    model: 'none',
    // biome-ignore lint/correctness/useYield: a provider that fails at once: no model is configured.
    async *turn() {
      throw new NoProviderError();
    },
  };
}
