import { NoProviderError, ProviderConfigError } from '../errors.js';
import { type AnthropicMessagesOptions, AnthropicMessagesProvider } from './anthropic-messages.js';
import { type ModelServiceSettings, modelServiceSettings } from './model-service.js';
import { type OpenAICompatibleOptions, OpenAICompatibleProvider } from './openai-compatible.js';
import { ScriptedProvider } from './scripted.js';
import type { ModelProvider } from './types.js';

export interface ProviderConfig {
  /** `scripted:PATH`, `openai:MODEL`, `anthropic:MODEL`, or a plain model name (OpenAI-compatible). */
  readonly model?: string;
  readonly baseURL?: string;
  readonly apiKey?: string;
  readonly includeUsage?: boolean;
  /** The config file's `model` section; the environment still overrides it. */
  readonly service?: Partial<ModelServiceSettings>;
}

/** The provider families `--model` and `TWINLINE_MODEL` may name, as `<prefix>:<model>`. */
export const PROVIDER_PREFIXES = ['scripted', 'openai', 'anthropic'] as const;

/** A parsed provider spec; pure, so the CLI can validate `--model` before doing any work. */
export type ProviderSpec =
  | { readonly kind: 'scripted'; readonly path: string }
  | { readonly kind: 'openai'; readonly model: string }
  | { readonly kind: 'anthropic'; readonly model: string };

/**
 * Parses `scripted:PATH`, `openai:MODEL`, `anthropic:MODEL` or a plain model name (no colon:
 * OpenAI-compatible). Any other prefix is an error naming the known ones: a typo must not become
 * a request to the wrong service.
 */
export function parseProviderSpec(spec: string): ProviderSpec {
  const trimmed = spec.trim();
  if (trimmed === '')
    throw new ProviderConfigError('agent.bad_model', 'empty model name', { where: '--model' });
  const colon = trimmed.indexOf(':');
  if (colon < 0) return { kind: 'openai', model: trimmed };
  const prefix = trimmed.slice(0, colon);
  const rest = trimmed.slice(colon + 1);
  if (!(PROVIDER_PREFIXES as readonly string[]).includes(prefix)) {
    throw new ProviderConfigError(
      'agent.unknown_provider',
      `unknown model provider ${JSON.stringify(prefix)}: use ${PROVIDER_PREFIXES.map((p) => `${p}:`).join(', ')} (an OpenAI-compatible model whose name has a colon: openai:${trimmed})`,
      { where: '--model' },
    );
  }
  if (!rest) {
    throw new ProviderConfigError(
      'agent.bad_model',
      prefix === 'scripted' ? 'scripted: needs a file path' : `${prefix}: needs a model name`,
      { where: '--model' },
    );
  }
  if (prefix === 'scripted') return { kind: 'scripted', path: rest };
  return prefix === 'anthropic' ? { kind: 'anthropic', model: rest } : { kind: 'openai', model: rest };
}

/**
 * The provider for a config: `config.model`, else `TWINLINE_MODEL`. No model at all throws
 * `NoProviderError`, which the lines layer turns into the read-only degraded path. OpenAI-compatible
 * services read `OPENAI_BASE_URL` / `OPENAI_API_KEY`, Anthropic's `ANTHROPIC_BASE_URL` /
 * `ANTHROPIC_API_KEY`; timeouts, streaming and retries come from `service` and the environment.
 */
export function createProvider(
  config: ProviderConfig | string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ModelProvider {
  const cfg: ProviderConfig = typeof config === 'string' ? { model: config } : (config ?? {});
  const model = cfg.model ?? env.TWINLINE_MODEL;
  if (!model || model.trim() === '') throw new NoProviderError();
  const spec = parseProviderSpec(model);
  if (spec.kind === 'scripted') return ScriptedProvider.fromFile(spec.path);
  const service = modelServiceSettings(cfg.service, env);
  if (spec.kind === 'anthropic') {
    const baseURL = cfg.baseURL ?? env.ANTHROPIC_BASE_URL;
    const apiKey = cfg.apiKey ?? env.ANTHROPIC_API_KEY;
    const options: AnthropicMessagesOptions = {
      model: spec.model,
      service,
      ...(baseURL ? { baseURL } : {}),
      ...(apiKey ? { apiKey } : {}),
    };
    return new AnthropicMessagesProvider(options);
  }
  const baseURL = cfg.baseURL ?? env.OPENAI_BASE_URL;
  const apiKey = cfg.apiKey ?? env.OPENAI_API_KEY;
  const options: OpenAICompatibleOptions = {
    model: spec.model,
    service,
    ...(baseURL ? { baseURL } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(cfg.includeUsage === undefined ? {} : { includeUsage: cfg.includeUsage }),
  };
  return new OpenAICompatibleProvider(options);
}
