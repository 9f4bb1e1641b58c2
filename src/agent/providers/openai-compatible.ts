import type OpenAI from 'openai';
import { importExternal } from '../../core/index.js';
import { InterruptedError, ProviderError } from '../errors.js';
import { abortableDelay } from './abortable-delay.js';
import {
  DEFAULT_RETRY_POLICY,
  isRetryableStatus,
  type RetryPolicy,
  retryAfterMs,
  retryDelayMs,
} from './retry-policy.js';
import type {
  ModelDelta,
  ModelMessage,
  ModelProvider,
  ModelTurnRequest,
  ProposedToolCall,
  ToolDeclaration,
} from './types.js';

export interface OpenAICompatibleOptions {
  readonly model: string;
  /** Defaults to `OPENAI_BASE_URL`, then the OpenAI endpoint. */
  readonly baseURL?: string;
  /** Defaults to `OPENAI_API_KEY`. Local servers (vLLM, Ollama) accept any non-empty key. */
  readonly apiKey?: string;
  readonly retry?: RetryPolicy;
  /** Ask for token usage in the stream (`stream_options.include_usage`). Some servers reject it. */
  readonly includeUsage?: boolean;
  readonly temperature?: number;
  /** Per-request timeout of the HTTP client. */
  readonly timeoutMs?: number;
}

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ChatTool = OpenAI.Chat.Completions.ChatCompletionTool;

/**
 * Any OpenAI-compatible Chat Completions endpoint with tool calling (OpenAI, Qwen/DashScope,
 * DeepSeek, vLLM, Ollama), through the official `openai` client. Streams text, assembles tool
 * calls from their fragments, retries 429/5xx with backoff honouring Retry-After, and stops the
 * request when the turn's signal aborts. The client is loaded on first use so merely configuring a
 * provider costs nothing at start-up.
 */
export class OpenAICompatibleProvider implements ModelProvider {
  readonly kind = 'openai';
  readonly model: string;
  readonly #options: OpenAICompatibleOptions;
  #client: Promise<OpenAI> | undefined;

  constructor(options: OpenAICompatibleOptions) {
    this.model = options.model;
    this.#options = options;
  }

  forSubagent(): ModelProvider {
    return this;
  }

  async *turn(request: ModelTurnRequest): AsyncIterable<ModelDelta> {
    const client = await this.#getClient();
    const policy = this.#options.retry ?? DEFAULT_RETRY_POLICY;
    const where = `openai:${this.model}`;
    const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming = {
      model: this.model,
      messages: toChatMessages(request.system, request.messages),
      stream: true,
      ...(request.tools.length > 0 ? { tools: request.tools.map(toChatTool) } : {}),
      ...(this.#options.includeUsage === false ? {} : { stream_options: { include_usage: true } }),
      ...(this.#options.temperature === undefined ? {} : { temperature: this.#options.temperature }),
    };

    for (let attempt = 0; ; attempt++) {
      if (request.signal.aborted) throw new InterruptedError(where);
      let yielded = false;
      try {
        const stream = await client.chat.completions.create(body, { signal: request.signal });
        const acc = new StreamAccumulator();
        for await (const chunk of stream) {
          const text = acc.add(chunk);
          if (text) {
            yielded = true;
            yield { type: 'text_delta', text };
          }
        }
        if (request.signal.aborted) throw new InterruptedError(where);
        yield { type: 'message', message: acc.message(), usage: acc.usage() };
        return;
      } catch (err) {
        if (request.signal.aborted || isAbort(err)) throw new InterruptedError(where);
        const status = statusOf(err);
        if (yielded || attempt >= policy.maxRetries || !isRetryableStatus(status)) {
          throw new ProviderError(describe(err), { where, status, cause: err });
        }
        const delayMs = retryDelayMs(policy, attempt + 1, serverDelay(err));
        yield { type: 'retry', attempt: attempt + 1, delayMs, ...(status === undefined ? {} : { status }) };
        await abortableDelay(delayMs, request.signal, where);
      }
    }
  }

  #getClient(): Promise<OpenAI> {
    this.#client ??= importExternal<typeof import('openai')>('openai').then(
      ({ default: OpenAIClient }) =>
        new OpenAIClient({
          apiKey: this.#options.apiKey ?? process.env.OPENAI_API_KEY ?? 'unset',
          baseURL: this.#options.baseURL ?? process.env.OPENAI_BASE_URL ?? null,
          // Retries are ours: we decide on status, honour Retry-After and surface each retry as an event.
          maxRetries: 0,
          ...(this.#options.timeoutMs === undefined ? {} : { timeout: this.#options.timeoutMs }),
        }),
    );
    return this.#client;
  }
}

/** Builds the final message from streamed chunks; tool-call fragments are keyed by their index. */
class StreamAccumulator {
  #text = '';
  #finish: string | undefined;
  #calls = new Map<number, { id: string; name: string; args: string }>();
  #usage = { inputTokens: 0, outputTokens: 0 };

  add(chunk: OpenAI.Chat.Completions.ChatCompletionChunk): string {
    if (chunk.usage) {
      this.#usage = {
        inputTokens: chunk.usage.prompt_tokens ?? 0,
        outputTokens: chunk.usage.completion_tokens ?? 0,
      };
    }
    const choice = chunk.choices?.[0];
    if (!choice) return '';
    if (choice.finish_reason) this.#finish = choice.finish_reason;
    for (const tc of choice.delta?.tool_calls ?? []) {
      const slot = this.#calls.get(tc.index) ?? { id: '', name: '', args: '' };
      if (tc.id) slot.id = tc.id;
      if (tc.function?.name) slot.name += tc.function.name;
      if (tc.function?.arguments) slot.args += tc.function.arguments;
      this.#calls.set(tc.index, slot);
    }
    const text = choice.delta?.content ?? '';
    this.#text += text;
    return text;
  }

  message() {
    const toolCalls: ProposedToolCall[] = [...this.#calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => ({
        id: c.id || `call_${index}`,
        name: c.name,
        arguments: parseArguments(c.args),
      }));
    return {
      text: this.#text,
      toolCalls,
      ...(this.#finish === undefined ? {} : { finishReason: this.#finish }),
    };
  }

  usage() {
    return this.#usage;
  }
}

/** Parsed JSON when the model wrote JSON; otherwise the raw text, which the gateway's schema stage refuses. */
function parseArguments(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function toChatMessages(system: string, messages: readonly ModelMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (system) out.push({ role: 'system', content: system });
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: m.content });
    else if (m.role === 'tool') out.push({ role: 'tool', tool_call_id: m.toolCallId, content: m.content });
    else {
      const calls = m.toolCalls ?? [];
      out.push({
        role: 'assistant',
        content: m.content === '' && calls.length > 0 ? null : m.content,
        ...(calls.length > 0
          ? {
              tool_calls: calls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: {
                  name: c.name,
                  arguments:
                    typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
                },
              })),
            }
          : {}),
      });
    }
  }
  return out;
}

function toChatTool(t: ToolDeclaration): ChatTool {
  return {
    type: 'function',
    function: { name: t.name, description: t.description, parameters: { ...t.parameters } },
  };
}

function isAbort(err: unknown): boolean {
  return (
    err instanceof Error &&
    (err.name === 'AbortError' ||
      err.name === 'APIUserAbortError' ||
      err.constructor.name === 'APIUserAbortError')
  );
}

function statusOf(err: unknown): number | undefined {
  const s = (err as { status?: unknown } | null)?.status;
  return typeof s === 'number' ? s : undefined;
}

function serverDelay(err: unknown): number | undefined {
  const headers = (err as { headers?: unknown } | null)?.headers;
  if (!headers || typeof (headers as Headers).get !== 'function') return undefined;
  return retryAfterMs((name) => (headers as Headers).get(name));
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
