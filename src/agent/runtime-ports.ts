import type {
  ApprovalAnswer,
  ApprovalRequest,
  Approver,
  CallContext,
  GatewayResult,
  ToolCall,
} from '../gateway/index.js';
import type { AgentFrameRef, ToolSpec } from '../tools/index.js';

/** The one way the runtime runs a tool: the ToolGateway (`gateway.invoke`). */
export interface ToolInvoker {
  invoke(call: ToolCall, ctx: CallContext): Promise<GatewayResult>;
}

/** The registered tools (a `ToolRegistry`). */
export interface ToolCatalog {
  get(name: string): ToolSpec | undefined;
  list(): readonly ToolSpec[];
}

/** A sub-agent definition as the access layer's loader produces it (Markdown + frontmatter). */
export interface SubagentDefinition {
  readonly name: string;
  readonly description: string;
  /** The body of the definition file. */
  readonly systemPrompt: string;
  readonly tools?: readonly string[];
  readonly disallowedTools?: readonly string[];
  readonly approvalMode?: string;
  readonly model?: string;
  readonly maxTurns?: number;
  readonly background?: boolean;
}

/** What the access layer granted an agent: its tools and mode, plus the layer's own resolution. */
export interface AccessGrant {
  readonly tools: ReadonlySet<string>;
  readonly approvalMode: string;
  /** The access layer's resolution (rules, scoped denies, allowed agent types), opaque here. */
  readonly data?: unknown;
}

/** The agent a question about tools or modes is asked for. */
export interface AccessFrame {
  readonly ref: AgentFrameRef;
  /** The parent's grant (absent for the main agent). */
  readonly parent?: AccessGrant;
  readonly definition?: SubagentDefinition;
  /** The main agent's mode as the session sets it. */
  readonly requestedMode?: string;
}

/** How a call reached the gateway. */
export type CallRoute = 'direct' | 'tool_call' | 'exec';

/**
 * What the runtime asks the access layer. Pure decisions: which tools an agent sees and may call,
 * which approval mode it runs in, whether a caller may interact with the user. An adapter over
 * `src/access` implements it (see `createAccessPort`).
 */
export interface AgentAccess {
  /** The tools and mode of an agent; a spawned agent's are within its parent's. */
  grant(frame: AccessFrame, available: readonly ToolSpec[], trustedFolder: boolean): AccessGrant;
  /** Throws a typed error when the caller may not talk to the user (background agents). */
  assertInteractiveCaller(agent: AgentFrameRef | undefined, tool: string): void;
  /**
   * Approver for a `bubble` agent: the parent's approver, bounded by a timeout after which the
   * request is denied. The runtime falls back to its own bounded wrapper when absent.
   */
  bubbleApprover?(parent: Approver, timeoutMs: number): Approver;
  /** Data the gateway's access stage reads from `ctx.extensions` for this agent's calls. */
  callExtensions?(
    grant: AccessGrant,
    frame: AccessFrame,
    approvalMode: string,
    route: CallRoute,
  ): Record<string, unknown>;
}

/** Answers questions the model asks the user (`ask_user`). Absent → non-interactive session. */
export type UserQuestionHandler = (
  question: { readonly question: string; readonly options?: readonly string[]; readonly agent: string },
  signal: AbortSignal,
) => Promise<string>;

export type { ApprovalAnswer, ApprovalRequest, Approver };
