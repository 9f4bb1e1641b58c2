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

/** The agent a hook is asked about: the main agent (depth 0) or a sub-agent. */
export interface HookAgent {
  readonly agentId: string;
  /** The definition's name (`main` for the main agent). */
  readonly agentType: string;
  readonly depth: number;
}

/**
 * The host's hooks on the agents' lifecycle (docs/protocol.md, "Hooks"). Decisions about a call
 * are the gateway's `hooks` slot (`ToolHooks`); these only add context or keep an agent going,
 * and what they add reaches the model as the host's quoted words. A hook that fails or does not
 * answer in time adds nothing and keeps nothing going.
 */
export interface AgentHooks {
  /** A call was executed: context for the model about its result. */
  afterCall?(
    agent: HookAgent,
    call: { readonly id: string; readonly name: string; readonly arguments: unknown },
    result: GatewayResult,
    signal: AbortSignal,
  ): Promise<{ readonly context?: string } | undefined>;
  /**
   * The agent answered without a tool call and is about to finish: `continueWith` keeps it
   * going with that instruction (within its turn budget). `active` is true when a hook kept this
   * run going before.
   */
  beforeStop?(
    agent: HookAgent,
    lastText: string,
    active: boolean,
    signal: AbortSignal,
  ): Promise<{ readonly continueWith?: string } | undefined>;
  /** A sub-agent is starting: context appended to its prompt. */
  subagentStart?(agent: HookAgent, signal: AbortSignal): Promise<{ readonly context?: string } | undefined>;
}

/** Text a host hook added, as the model reads it: quoted, and labelled as the host's. */
export function hostHookText(label: string, text: string): string {
  return `[${label}] ${JSON.stringify(text)}`;
}

/** Answers questions the model asks the user (`ask_user`). Absent → non-interactive session. */
export type UserQuestionHandler = (
  question: { readonly question: string; readonly options?: readonly string[]; readonly agent: string },
  signal: AbortSignal,
) => Promise<string>;

export type { ApprovalAnswer, ApprovalRequest, Approver };
