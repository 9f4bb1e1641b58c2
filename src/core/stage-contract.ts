import type { StageDecision } from './decision.js';
import type { Identity } from './identity.js';
import type { AgentFrameRef, CallerHandle, ToolSpec } from './tool-manifest.js';

// The stage contract every layer implements (docs/architecture.md, "One boundary"): access,
// policy, gates and resilience import it from here, so none of them imports the gateway, and
// only the pipeline puts stages together.

/** A tool call as the model proposed it. Nothing in it is trusted. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
}

/** A call after lookup: the manifest it targets and its (possibly rewritten) arguments. */
export interface PreparedCall {
  readonly call: ToolCall;
  readonly tool: ToolSpec;
  /** Arguments as the current stage sees them: raw before `schema`, parsed/rewritten after. */
  readonly args: unknown;
}

/** What an approver (host via control protocol, parent agent via bubble, a human) answers. */
export type ApprovalAnswer =
  | { readonly behavior: 'allow'; readonly updatedArgs?: unknown; readonly message?: string }
  | { readonly behavior: 'deny'; readonly message?: string };

export interface ApprovalRequest {
  readonly call: ToolCall;
  readonly tool: ToolSpec;
  readonly args: unknown;
  /** The `ask` decision that triggered the request. */
  readonly decision: StageDecision;
  readonly ctx: CallContext;
}

/** Answers `ask` verdicts. Must settle; the gateway also bounds it with a timeout. */
export interface Approver {
  request(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
}

/**
 * What a host's hooks answered about one call before it runs (docs/protocol.md, "Hooks"). A hook
 * may make the decision stricter (`deny`, `ask`) but never looser: `allow` only means "no
 * objection", and every other slot still decides.
 */
export interface ToolHookAnswer {
  readonly verdict: 'allow' | 'ask' | 'deny';
  readonly reason?: string;
  /** The hook rewrote the arguments: a new call, decided again from the first slot. */
  readonly updatedArgs?: unknown;
}

/** The host's hooks on tool calls, as the gateway's `hooks` slot asks them. Must settle. */
export interface ToolHooks {
  /** Undefined when no hook of the host matches the call. */
  beforeCall(call: PreparedCall, ctx: CallContext): Promise<ToolHookAnswer | undefined>;
}

/** Records third-party text (tool output, fetched pages) seen in a session. */
export interface ThirdPartyTextLedger {
  /** Adds text that came from outside. */
  add(text: string, source: string): void;
  /** The source label if `value` contains a run of text that only appeared in third-party output. */
  findOrigin(value: string): string | undefined;
}

/**
 * Everything about the caller a stage may use. Built by the runtime from trusted state — the
 * model writes none of it.
 */
export interface CallContext {
  readonly identity: Identity;
  readonly sessionId: string;
  /**
   * The tenant the request is addressed to (e.g. from the URL or API key scope), when ingress knows
   * it. The gateway denies a call whose identity belongs to a different tenant.
   */
  readonly tenant?: string;
  readonly signal?: AbortSignal;
  /** The calling agent; absent means the main agent. */
  readonly agent?: AgentFrameRef;
  /** Audit domain / line: `deep`, `quick`, `readonly`, `main`, `cli`. */
  readonly domain?: string;
  readonly taskId?: string;
  /** High-risk capabilities (tool names or categories) the task declared up front. */
  readonly declaredCapabilities?: readonly string[];
  /** Current approval mode of the calling agent. */
  readonly approvalMode?: string;
  /** Who answers `ask` verdicts. Absent → `ask` ends the call as `ask`. */
  readonly approver?: Approver;
  /** Third-party text seen in this session, for the parameter gate. */
  readonly thirdPartyText?: ThirdPartyTextLedger;
  readonly watermark?: string;
  readonly idempotencyKey?: string;
  readonly cwd?: string;
  /** Clock, injectable for tests. */
  readonly now?: () => Date;
  /** Per-layer extension data keyed by stage name (access state, policy inputs, …). */
  readonly extensions?: Readonly<Record<string, unknown>>;
  /** Who issued the call, for the tool that runs it (see {@link CallerHandle}); no stage reads it. */
  readonly caller?: CallerHandle;
}

/** A pre-execution stage. Returns `allow` to continue; the first non-allow verdict ends the call. */
export interface GatewayStage {
  readonly name: string;
  evaluate(call: PreparedCall, ctx: CallContext): StageDecision | Promise<StageDecision>;
}

/** A post-execution stage: transforms what the model will see (redaction, quoting). */
export interface ResultStage {
  readonly name: string;
  transform(
    output: unknown,
    call: PreparedCall,
    ctx: CallContext,
  ): ResultTransform | Promise<ResultTransform>;
}

export interface ResultTransform {
  readonly output: unknown;
  /** Findings worth auditing (e.g. injection found in tool output). */
  readonly notes?: readonly string[];
}
