import type Anthropic from '@anthropic-ai/sdk';
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

export interface AnthropicMessagesOptions {
  readonly model: string;
  /** Defaults to `ANTHROPIC_BASE_URL`, then Anthropic's endpoint. */
  readonly baseURL?: string;
  /** Defaults to `ANTHROPIC_API_KEY`. */
  readonly apiKey?: string;
  /** Backoff between attempts; its `maxRetries` wins over `service.maxRetries` when given. */
  readonly retry?: RetryPolicy;
  /** The Messages API requires an output cap (default 4096 tokens). */
  readonly maxTokens?: number;
  readonly temperature?: number;
  /** Timeouts, streaming and retries (default {@link DEFAULT_MODEL_SERVICE}). */
  readonly service?: Partial<ModelServiceSettings>;
}

type MessageParam = Anthropic.Messages.MessageParam;
type ContentBlockParam = Anthropic.Messages.ContentBlockParam;

/**
 * Anthropic's Messages API through the official `@anthropic-ai/sdk` client, behind the same
 * `ModelProvider` contract as the OpenAI-compatible provider: the same deltas, the same timeouts,
 * retries and cancellation (shared in `attemptTurn`), streamed (server-sent events) or whole.
 * Tool calls are `tool_use` blocks whose JSON input arrives as `input_json_delta` fragments;
 * tool results go back as `tool_result` blocks in the next user message.
 */
export class AnthropicMessagesProvider implements ModelProvider {
  readonly kind = 'anthropic';
  readonly model: string;
  readonly #options: AnthropicMessagesOptions;
  readonly #service: ModelServiceSettings;
  #client: Promise<Anthropic> | undefined;

  constructor(options: AnthropicMessagesOptions) {
    this.model = options.model;
    this.#options = options;
    this.#service = { ...DEFAULT_MODEL_SERVICE, ...definedOnly(options.service) };
  }

  forSubagent(): ModelProvider {
    return this;
  }

  /** The endpoint requests go to (for error messages). */
  get endpoint(): string {
    return this.#options.baseURL ?? process.env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com';
  }

  turn(request: ModelTurnRequest): AsyncIterable<ModelDelta> {
    return this.#turn(request);
  }

  // The client is loaded before the first attempt starts its timers: loading it is not the service's time.
  async *#turn(request: ModelTurnRequest): AsyncIterable<ModelDelta> {
    const loaded = await this.#getClient();
    const service = this.#service;
    const body = {
      model: this.model,
      max_tokens: this.#options.maxTokens ?? 4096,
      messages: toMessages(request.messages),
      ...(request.system ? { system: request.system } : {}),
      ...(request.tools.length > 0 ? { tools: request.tools.map(toTool) } : {}),
      ...(this.#options.temperature === undefined ? {} : { temperature: this.#options.temperature }),
    };
    const plan = {
      where: `anthropic:${this.model}`,
      endpoint: this.endpoint,
      service,
      policy: this.#options.retry ?? { ...DEFAULT_RETRY_POLICY, maxRetries: service.maxRetries },
      signal: request.signal,
    };
    yield* attemptTurn(plan, async function* (timers) {
      const anthropic = loaded;
      if (!service.stream) {
        const message = await anthropic.messages.create(
          { ...body, stream: false },
          { signal: timers.signal },
        );
        const result = fromMessage(message);
        if (result.message.text) yield { type: 'text_delta', text: result.message.text };
        yield { type: 'message', ...result };
        return;
      }
      const stream = await anthropic.messages.create({ ...body, stream: true }, { signal: timers.signal });
      timers.responded();
      const acc = new EventAccumulator(plan.where);
      for await (const event of stream) {
        timers.activity();
        const text = acc.add(event);
        if (text) yield { type: 'text_delta', text };
      }
      yield { type: 'message', ...acc.result() };
    });
  }

  #getClient(): Promise<Anthropic> {
    this.#client ??= importExternal<typeof import('@anthropic-ai/sdk')>('@anthropic-ai/sdk').then(
      ({ default: AnthropicClient }) =>
        new AnthropicClient({
          apiKey: this.#options.apiKey ?? process.env.ANTHROPIC_API_KEY ?? 'unset',
          ...(this.#options.baseURL ? { baseURL: this.#options.baseURL } : {}),
          // Retries and timeouts are ours (attemptTurn); the client's timeout only backs them up.
          maxRetries: 0,
          timeout: this.#service.requestTimeoutMs + this.#service.streamIdleTimeoutMs,
        }),
    );
    return this.#client;
  }
}

/** Builds the final message from the stream's events, block by block. */
class EventAccumulator {
  readonly #where: string;
  #text = '';
  #stop: string | undefined;
  readonly #tools = new Map<number, { id: string; name: string; json: string }>();
  #usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  #stopped = false;

  constructor(where: string) {
    this.#where = where;
  }

  add(event: Anthropic.Messages.RawMessageStreamEvent): string {
    switch (event.type) {
      case 'message_start':
        this.#usage = { inputTokens: event.message.usage?.input_tokens ?? 0, outputTokens: 0 };
        return '';
      case 'content_block_start':
        if (event.content_block.type === 'tool_use') {
          this.#tools.set(event.index, {
            id: event.content_block.id,
            name: event.content_block.name,
            json: '',
          });
        } else if (event.content_block.type === 'text' && event.content_block.text) {
          this.#text += event.content_block.text;
          return event.content_block.text;
        }
        return '';
      case 'content_block_delta':
        if (event.delta.type === 'text_delta') {
          this.#text += event.delta.text;
          return event.delta.text;
        }
        if (event.delta.type === 'input_json_delta') {
          const slot = this.#tools.get(event.index);
          if (slot) slot.json += event.delta.partial_json;
        }
        return '';
      case 'message_delta':
        if (event.delta.stop_reason) this.#stop = event.delta.stop_reason;
        this.#usage = {
          ...this.#usage,
          outputTokens: event.usage?.output_tokens ?? this.#usage.outputTokens,
        };
        return '';
      case 'message_stop':
        this.#stopped = true;
        return '';
      default:
        return '';
    }
  }

  result(): { message: AssistantMessage; usage: TokenUsage } {
    if (!this.#stopped) {
      throw new ProviderError('the model service ended its stream before message_stop', {
        where: this.#where,
        failure: 'bad_response',
      });
    }
    const toolCalls: ProposedToolCall[] = [...this.#tools.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, t]) => ({ id: t.id, name: t.name, arguments: parseArguments(t.json) }));
    return {
      message: { text: this.#text, toolCalls, ...(this.#stop ? { finishReason: this.#stop } : {}) },
      usage: this.#usage,
    };
  }
}

/** A whole (non-streamed) Messages API response as our message. */
function fromMessage(message: Anthropic.Messages.Message): { message: AssistantMessage; usage: TokenUsage } {
  let text = '';
  const toolCalls: ProposedToolCall[] = [];
  for (const block of message.content ?? []) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'tool_use')
      toolCalls.push({ id: block.id, name: block.name, arguments: block.input });
  }
  return {
    message: { text, toolCalls, ...(message.stop_reason ? { finishReason: message.stop_reason } : {}) },
    usage: {
      inputTokens: message.usage?.input_tokens ?? 0,
      outputTokens: message.usage?.output_tokens ?? 0,
    },
  };
}

/**
 * Our history as Messages API turns: tool results become `tool_result` blocks of a user turn, and
 * consecutive user content is merged (the API wants user and assistant turns to alternate).
 */
function toMessages(messages: readonly ModelMessage[]): MessageParam[] {
  const out: MessageParam[] = [];
  const pushUser = (block: ContentBlockParam) => {
    const last = out.at(-1);
    if (last?.role === 'user' && Array.isArray(last.content)) last.content.push(block);
    else out.push({ role: 'user', content: [block] });
  };
  for (const m of messages) {
    if (m.role === 'user') pushUser({ type: 'text', text: m.content });
    else if (m.role === 'tool')
      pushUser({ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content });
    else {
      const content: ContentBlockParam[] = [];
      if (m.content) content.push({ type: 'text', text: m.content });
      for (const c of m.toolCalls ?? []) {
        content.push({
          type: 'tool_use',
          id: c.id,
          name: c.name,
          input: typeof c.arguments === 'object' && c.arguments !== null ? c.arguments : {},
        });
      }
      out.push({ role: 'assistant', content: content.length > 0 ? content : [{ type: 'text', text: '' }] });
    }
  }
  return out;
}

function toTool(t: ToolDeclaration): Anthropic.Messages.Tool {
  return {
    name: t.name,
    description: t.description,
    input_schema: { type: 'object', ...t.parameters } as Anthropic.Messages.Tool.InputSchema,
  };
}
