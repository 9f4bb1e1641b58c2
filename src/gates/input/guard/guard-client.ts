import { ConfigError } from '../../../core/index.js';
import type { Channel } from '../combine.js';

/**
 * An optional guard model behind an OpenAI-compatible endpoint (docs/gates.md "Guard model"),
 * for deployments that serve one: a generative guard such as Qwen3Guard answers a chat
 * completion with `Safety: Safe|Unsafe|Controversial` and `Categories: …`; a classifier such as
 * Llama Prompt Guard 2 on vLLM answers `/classify` with class probabilities. Off unless
 * configured; never required: every failure (timeout, refused connection, non-2xx, an answer
 * that does not parse) is reported as such and the caller keeps the embedded scorer's result.
 */
export interface GuardConfig {
  /** Base URL, e.g. `http://127.0.0.1:8000/v1`; `chat` posts to `/chat/completions`, `classify` to `/classify`. */
  readonly baseUrl: string;
  readonly model: string;
  readonly format?: 'chat' | 'classify';
  readonly apiKey?: string;
  /** Give up after this long (default 800 ms): the embedded scorer answers instead. */
  readonly timeoutMs?: number;
  /** For `classify`: index of the malicious class in `probs` (default 1). */
  readonly maliciousIndex?: number;
}

export type GuardOutcome =
  | {
      readonly ok: true;
      readonly score: number;
      readonly label: string;
      readonly latencyMs: number;
      readonly model: string;
    }
  | { readonly ok: false; readonly error: string; readonly latencyMs: number; readonly model: string };

export interface GuardClient {
  readonly config: Readonly<Required<Omit<GuardConfig, 'apiKey'>>> & { readonly apiKey?: string };
  score(text: string, channel: Channel): Promise<GuardOutcome>;
}

/** What a generative guard's verdict means as an injection score. */
const VERDICT_SCORE: Readonly<Record<string, number>> = { safe: 0.02, controversial: 0.6, unsafe: 0.95 };

/** Parses a Qwen3Guard-style answer; undefined when it is not one. */
export function parseGuardVerdict(content: string): { score: number; label: string } | undefined {
  const m = /safety\s*:\s*(safe|unsafe|controversial)/i.exec(content);
  if (!m) return undefined;
  const verdict = m[1]!.toLowerCase();
  const categories = /categories\s*:\s*([^\n]*)/i.exec(content)?.[1]?.trim();
  return { score: VERDICT_SCORE[verdict]!, label: categories ? `${verdict}: ${categories}` : verdict };
}

export function createGuardClient(config: GuardConfig): GuardClient {
  let url: URL;
  try {
    url = new URL(config.baseUrl);
  } catch {
    throw new ConfigError('guard_url', `not a URL: ${JSON.stringify(config.baseUrl)}`, {
      where: 'guard.baseUrl',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError('guard_url', `must be http(s), got ${url.protocol}`, { where: 'guard.baseUrl' });
  if (!config.model)
    throw new ConfigError('guard_model', 'a guard model name is required', { where: 'guard.model' });
  const format = config.format ?? 'chat';
  if (format !== 'chat' && format !== 'classify')
    throw new ConfigError('guard_format', `format must be chat | classify, got ${JSON.stringify(format)}`, {
      where: 'guard.format',
    });
  const timeoutMs = config.timeoutMs ?? 800;
  if (!(timeoutMs > 0))
    throw new ConfigError('guard_timeout', `timeoutMs must be positive, got ${timeoutMs}`, {
      where: 'guard.timeoutMs',
    });
  const resolved = {
    baseUrl: config.baseUrl.replace(/\/+$/, ''),
    model: config.model,
    format,
    timeoutMs,
    maliciousIndex: config.maliciousIndex ?? 1,
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
  } as const;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;

  async function call(text: string, channel: Channel): Promise<{ score: number; label: string }> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const body =
        format === 'chat'
          ? {
              model: resolved.model,
              // third-party text is moderated as what it is: content handed to the model
              messages: [
                { role: 'user', content: channel === 'tool_output' ? `[tool output]\n${text}` : text },
              ],
              max_tokens: 32,
              temperature: 0,
            }
          : { model: resolved.model, input: [text] };
      const res = await fetch(`${resolved.baseUrl}/${format === 'chat' ? 'chat/completions' : 'classify'}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const json = (await res.json()) as {
        choices?: Array<{ message?: { content?: unknown } }>;
        data?: Array<{ probs?: unknown; label?: unknown }>;
      };
      if (format === 'chat') {
        const content = json.choices?.[0]?.message?.content;
        if (typeof content !== 'string') throw new Error('no choices[0].message.content');
        const v = parseGuardVerdict(content);
        if (!v) throw new Error(`unrecognised guard answer ${JSON.stringify(content.slice(0, 80))}`);
        return v;
      }
      const probs = json.data?.[0]?.probs;
      const p = Array.isArray(probs) ? probs[resolved.maliciousIndex] : undefined;
      if (typeof p !== 'number' || !(p >= 0 && p <= 1))
        throw new Error('no data[0].probs for the malicious class');
      return {
        score: p,
        label: typeof json.data?.[0]?.label === 'string' ? (json.data[0].label as string) : 'classified',
      };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    config: resolved,
    async score(text, channel) {
      const t0 = performance.now();
      try {
        const v = await call(text, channel);
        return {
          ok: true,
          ...v,
          latencyMs: Math.round((performance.now() - t0) * 10) / 10,
          model: resolved.model,
        };
      } catch (err) {
        const e = err as Error;
        const error = e.name === 'AbortError' ? `timed out after ${timeoutMs} ms` : e.message;
        return {
          ok: false,
          error,
          latencyMs: Math.round((performance.now() - t0) * 10) / 10,
          model: resolved.model,
        };
      }
    },
  };
}
