/**
 * The contract between the agent loop and any model. A provider turns one request into a stream
 * of deltas that always ends with exactly one `message` delta holding the complete assistant
 * message and the tokens used. Nothing a provider returns is trusted: tool calls are proposals
 * that the gateway decides on.
 */

/** A tool as the model sees it: the name, what it does, and its arguments as JSON Schema. */
export interface ToolDeclaration {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** A tool call the model proposed. `arguments` is parsed JSON, or the raw text when unparseable. */
export interface ProposedToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
}

export type ModelMessage =
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string;
      readonly toolCalls?: readonly ProposedToolCall[];
    }
  | {
      readonly role: 'tool';
      readonly toolCallId: string;
      readonly name: string;
      /** Always a gateway's `modelContent`, never a tool's raw output. */
      readonly content: string;
    };

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** What the turn cost, in US dollars, when the provider reports it (most do not). */
  readonly costUsd?: number;
}

export interface AssistantMessage {
  readonly text: string;
  readonly toolCalls: readonly ProposedToolCall[];
  /** The provider's stop reason (`stop`, `tool_calls`, `length`, …) when it gives one. */
  readonly finishReason?: string;
}

export type ModelDelta =
  | { readonly type: 'text_delta'; readonly text: string }
  | {
      readonly type: 'retry';
      readonly attempt: number;
      readonly delayMs: number;
      readonly status?: number;
      /** What failed, in words (`the model service answered HTTP 503`, `… connection refused …`). */
      readonly reason?: string;
    }
  | { readonly type: 'message'; readonly message: AssistantMessage; readonly usage: TokenUsage };

export interface ModelTurnRequest {
  readonly system: string;
  readonly messages: readonly ModelMessage[];
  readonly tools: readonly ToolDeclaration[];
  /** Aborting it cancels the request, including mid-stream. */
  readonly signal: AbortSignal;
}

export interface ModelProvider {
  /** Provider family: `openai`, `scripted`. */
  readonly kind: string;
  /** Model name as configured. */
  readonly model: string;
  /** The provider reports each turn's cost (`TokenUsage.costUsd`), so a cost budget can be enforced. */
  readonly reportsCost?: boolean;
  turn(request: ModelTurnRequest): AsyncIterable<ModelDelta>;
  /**
   * The provider a sub-agent should use. Stateless providers return themselves; the scripted
   * provider returns the script written for that agent.
   */
  forSubagent?(definitionName: string): ModelProvider;
}

/** Drains a turn and returns its final message, for callers that do not stream. */
export async function completeTurn(
  provider: ModelProvider,
  request: ModelTurnRequest,
): Promise<{ message: AssistantMessage; usage: TokenUsage }> {
  for await (const delta of provider.turn(request)) {
    if (delta.type === 'message') return { message: delta.message, usage: delta.usage };
  }
  throw new Error(`provider ${provider.kind}:${provider.model} ended a turn without a message`);
}
