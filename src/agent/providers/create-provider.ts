import { NoProviderError, ProviderConfigError } from '../errors.js';
import { type OpenAICompatibleOptions, OpenAICompatibleProvider } from './openai-compatible.js';
import { ScriptedProvider } from './scripted.js';
import type { ModelProvider } from './types.js';

export interface ProviderConfig {
  /** `scripted:PATH`, `openai:MODEL`, or a plain model name (OpenAI-compatible). */
  readonly model?: string;
  readonly baseURL?: string;
  readonly apiKey?: string;
  readonly includeUsage?: boolean;
}

/** A parsed provider spec; pure, so the CLI can validate `--model` before doing any work. */
export type ProviderSpec =
  | { readonly kind: 'scripted'; readonly path: string }
  | { readonly kind: 'openai'; readonly model: string };

/** Parses `scripted:PATH`, `openai:MODEL` or a plain model name. */
export function parseProviderSpec(spec: string): ProviderSpec {
  const trimmed = spec.trim();
  if (trimmed === '')
    throw new ProviderConfigError('agent.bad_model', 'empty model name', { where: '--model' });
  if (trimmed.startsWith('scripted:')) {
    const path = trimmed.slice('scripted:'.length);
    if (!path)
      throw new ProviderConfigError('agent.bad_model', 'scripted: needs a file path', { where: '--model' });
    return { kind: 'scripted', path };
  }
  if (trimmed.startsWith('openai:')) {
    const model = trimmed.slice('openai:'.length);
    if (!model)
      throw new ProviderConfigError('agent.bad_model', 'openai: needs a model name', { where: '--model' });
    return { kind: 'openai', model };
  }
  return { kind: 'openai', model: trimmed };
}

/**
 * The provider for a config: `config.model`, else `TWINLINE_MODEL`. No model at all throws
 * `NoProviderError`, which the lines layer turns into the read-only degraded path.
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
  const options: OpenAICompatibleOptions = {
    model: spec.model,
    ...((cfg.baseURL ?? env.OPENAI_BASE_URL) ? { baseURL: cfg.baseURL ?? env.OPENAI_BASE_URL } : {}),
    ...((cfg.apiKey ?? env.OPENAI_API_KEY) ? { apiKey: cfg.apiKey ?? env.OPENAI_API_KEY } : {}),
    ...(cfg.includeUsage === undefined ? {} : { includeUsage: cfg.includeUsage }),
  };
  return new OpenAICompatibleProvider(options);
}
