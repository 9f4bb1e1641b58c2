import type OpenAI from 'openai';
import { importExternal } from '../../core/index.js';
import { ProviderError } from '../errors.js';
import { attemptTurn, definedOnly, parseArguments } from './attempts.js';
import { DEFAULT_MODEL_SERVICE, type ModelServiceSettings } from './model-service.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
import type {
  AssistantMessage,
  ModelDelta,
  ModelMessage,
  ModelProvider,
  ModelTurnRequest,
  ProposedToolCall,
  TokenUsage,
  ToolDeclaration,
} from './types.js';

export interface OpenAICompatibleOptions {
  readonly model: string;
  /** Defaults to `OPENAI_BASE_URL`, then the OpenAI endpoint. */
  readonly baseURL?: string;
  /** Defaults to `OPENAI_API_KEY`. Local servers (vLLM, Ollama) accept any non-empty key. */
  readonly apiKey?: string;
  /** Backoff between attempts; its `maxRetries` wins over `service.maxRetries` when given. */
  readonly retry?: RetryPolicy;
  /** Ask for token usage in the stream (`stream_options.include_usage`). Some servers reject it. */
  readonly includeUsage?: boolean;
  readonly temperature?: number;
  /** Timeouts, streaming and retries (default {@link DEFAULT_MODEL_SERVICE}). */
  readonly service?: Partial<ModelServiceSettings>;
}

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ChatTool = OpenAI.Chat.Completions.ChatCompletionTool;

/**
 * Any OpenAI-compatible Chat Completions endpoint with tool calling (OpenAI, Qwen/DashScope,
 * DeepSeek, vLLM, Ollama), through the official `openai` client. Streams text (or asks for whole
 * responses), assembles tool calls from their fragments as the client's own stream helper does,
 * bounds every attempt by the request and stream-idle timeouts, retries 429/5xx and connection
 * errors with backoff honouring Retry-After, and drops the request on the wire when the turn's
 * signal aborts. The client is loaded on first use, so configuring a provider costs nothing at start-up.
 */
export class OpenAICompatibleProvider implements ModelProvider {
  readonly kind = 'openai';
  readonly model: string;
  readonly #options: OpenAICompatibleOptions;
  readonly #service: ModelServiceSettings;
  #client: Promise<OpenAI> | undefined;

  constructor(options: OpenAICompatibleOptions) {
    this.model = options.model;
    this.#options = options;
    this.#service = { ...DEFAULT_MODEL_SERVICE, ...definedOnly(options.service) };
  }

  forSubagent(): ModelProvider {
    return this;
  }

  /** The endpoint requests go to (for error messages). */
  get endpoint(): string {
    return this.#options.baseURL ?? process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
  }

  turn(request: ModelTurnRequest): AsyncIterable<ModelDelta> {
    return this.#turn(request);
  }

  // The client is loaded before the first attempt starts its timers: loading it is not the service's time.
  async *#turn(request: ModelTurnRequest): AsyncIterable<ModelDelta> {
    const loaded = await this.#getClient();
    const service = this.#service;
    const base = {
      model: this.model,
      messages: toChatMessages(request.system, request.messages),
      ...(request.tools.length > 0 ? { tools: request.tools.map(toChatTool) } : {}),
      ...(this.#options.temperature === undefined ? {} : { temperature: this.#options.temperature }),
    };
    const plan = {
      where: `openai:${this.model}`,
      endpoint: this.endpoint,
      service,
      policy: this.#options.retry ?? { ...DEFAULT_RETRY_POLICY, maxRetries: service.maxRetries },
      signal: request.signal,
    };
    const includeUsage = this.#options.includeUsage !== false;
    yield* attemptTurn(plan, async function* (timers) {
      const openai = loaded;
      if (!service.stream) {
        const completion = await openai.chat.completions.create(
          { ...base, stream: false },
          { signal: timers.signal },
        );
        const { message, usage } = fromCompletion(completion, plan.where);
        if (message.text) yield { type: 'text_delta', text: message.text };
        yield { type: 'message', message, usage };
        return;
      }
      const stream = await openai.chat.completions.create(
        { ...base, stream: true, ...(includeUsage ? { stream_options: { include_usage: true } } : {}) },
        { signal: timers.signal },
      );
      timers.responded();
      const acc = new StreamAccumulator();
      for await (const chunk of stream) {
        timers.activity();
        const text = acc.add(chunk);
        if (text) yield { type: 'text_delta', text };
      }
      yield { type: 'message', message: acc.message(), usage: acc.usage() };
    });
  }

  #getClient(): Promise<OpenAI> {
    this.#client ??= importExternal<typeof import('openai')>('openai').then(
      ({ default: OpenAIClient }) =>
        new OpenAIClient({
          apiKey: this.#options.apiKey ?? process.env.OPENAI_API_KEY ?? 'unset',
          baseURL: this.#options.baseURL ?? process.env.OPENAI_BASE_URL ?? null,
          // Retries are ours: we decide on status, honour Retry-After and surface each retry as an event.
          maxRetries: 0,
          // Our timers bound each attempt; the client's only backs them up.
          timeout: this.#service.requestTimeoutMs + this.#service.streamIdleTimeoutMs,
        }),
    );
    return this.#client;
  }
}

/**
 * Builds the final message from streamed chunks the way the `openai` client's own stream helper
 * (`ChatCompletionStream`) does: tool-call fragments are keyed by their index, `arguments` are
 * appended, while `id` and `name` are set (a server that repeats the name in every fragment
 * still yields one name).
 */
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
      if (tc.function?.name) slot.name = tc.function.name;
      if (tc.function?.arguments) slot.args += tc.function.arguments;
      this.#calls.set(tc.index, slot);
    }
    const text = choice.delta?.content ?? '';
    this.#text += text;
    return text;
  }

  message(): AssistantMessage {
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

/** A whole (non-streamed) completion as our message. */
function fromCompletion(
  completion: OpenAI.Chat.Completions.ChatCompletion,
  where: string,
): { message: AssistantMessage; usage: TokenUsage } {
  const choice = completion.choices?.[0];
  if (!choice?.message) {
    throw new ProviderError('the model service answered without a message', {
      where,
      failure: 'bad_response',
      detail: JSON.stringify(completion).slice(0, 500),
    });
  }
  const toolCalls: ProposedToolCall[] = (choice.message.tool_calls ?? []).flatMap((c, i) =>
    c.type === 'function'
      ? [
          {
            id: c.id || `call_${i}`,
            name: c.function.name,
            arguments: parseArguments(c.function.arguments ?? ''),
          },
        ]
      : [],
  );
  return {
    message: {
      text: choice.message.content ?? '',
      toolCalls,
      ...(choice.finish_reason ? { finishReason: choice.finish_reason } : {}),
    },
    usage: {
      inputTokens: completion.usage?.prompt_tokens ?? 0,
      outputTokens: completion.usage?.completion_tokens ?? 0,
    },
  };
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
