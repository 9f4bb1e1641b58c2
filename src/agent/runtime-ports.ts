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

/** The agent a question about tools or modes is asked for. */
export interface AccessFrame {
  readonly ref: AgentFrameRef;
  /** Tools of the parent (absent for the main agent). */
  readonly parentTools?: ReadonlySet<string>;
  readonly parentMode?: string;
  readonly definition?: SubagentDefinition;
}

/**
 * What the runtime asks the access layer. Pure decisions: which tools an agent sees and may call,
 * which approval mode it runs in, whether a caller may interact with the user. An adapter over
 * `src/access` implements it (see `accessLayerPort`).
 */
export interface AgentAccess {
  /** Names of the tools the agent may see and call, drawn from `available`. */
  toolsFor(frame: AccessFrame, available: readonly ToolSpec[]): ReadonlySet<string>;
  /** The approval mode of a spawned agent. */
  modeFor(frame: AccessFrame, trustedFolder: boolean): string;
  /** Throws a typed error when the caller may not talk to the user (background agents). */
  assertInteractiveCaller(agent: AgentFrameRef | undefined, tool: string): void;
  /**
   * Approver for a `bubble` agent: the parent's approver, bounded by a timeout after which the
   * request is denied. The runtime falls back to its own bounded wrapper when absent.
   */
  bubbleApprover?(parent: Approver, timeoutMs: number): Approver;
  /** Data the gateway's access stage reads from `ctx.extensions` for this agent's calls. */
  callExtensions?(
    frame: AccessFrame,
    tools: ReadonlySet<string>,
    approvalMode: string,
  ): Record<string, unknown>;
}

/** Answers questions the model asks the user (`ask_user`). Absent → non-interactive session. */
export type UserQuestionHandler = (
  question: { readonly question: string; readonly options?: readonly string[]; readonly agent: string },
  signal: AbortSignal,
) => Promise<string>;

export type { ApprovalAnswer, ApprovalRequest, Approver };
