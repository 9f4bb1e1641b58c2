/** Options of a {@link TwinlineAgent}. Everything is optional. */
export interface TwinlineAgentOptions {
  /** Working directory of the engine (workspace tools resolve paths against it). */
  readonly cwd?: string;
  /** Model spec: a model name, `openai:NAME`, or `scripted:PATH`. Default: `TWINLINE_MODEL`. */
  readonly model?: string;
  /** Approval mode, in Twinline's (`plan|default|auto-edit|auto|yolo`) or Claude's vocabulary. */
  readonly permissionMode?: string;
  readonly allowedTools?: readonly string[];
  readonly disallowedTools?: readonly string[];
  /** Extra environment of the engine, merged over `process.env` (e.g. `TWINLINE_USER`). */
  readonly env?: Readonly<Record<string, string>>;
  /** Path of the CLI entry to spawn with node (default: this package's `bin/twinline.js`). */
  readonly executable?: string;
  /** How long the engine waits for a permission answer before denying the call (default 60 s). */
  readonly permissionTimeoutMs?: number;
  /** How long SDK → engine requests (`setModel`, …) may take before they reject (default 60 s). */
  readonly requestTimeoutMs?: number;
  readonly maxTurns?: number;
  /** Adopted as the engine's session id. */
  readonly sessionId?: string;
  /** Stream text deltas as `stream_event` messages. */
  readonly includePartialMessages?: boolean;
}

/** A tool call the engine's gateway wants the host to approve (its `ask` verdict). */
export interface PermissionRequest {
  readonly toolName: string;
  readonly input: unknown;
  readonly toolUseId: string;
  /** Why the gateway asks (the approval stage's reason). */
  readonly reason: string | undefined;
  readonly description: string | undefined;
  readonly suggestions: readonly unknown[];
  /** Aborted when the engine withdraws the request (its timeout, an interrupt, or shutdown). */
  readonly signal: AbortSignal;
}

/** The host's answer. A bare string is shorthand for `{ behavior }`. */
export type PermissionDecision =
  | 'allow'
  | 'deny'
  | { readonly behavior: 'allow'; readonly updatedInput?: unknown; readonly message?: string }
  | { readonly behavior: 'deny'; readonly message?: string; readonly interrupt?: boolean };

export type PermissionHandler = (
  request: PermissionRequest,
) => PermissionDecision | Promise<PermissionDecision>;

/** A message from the engine (the stream-json data messages: `system`, `assistant`, `user`, `result`, `stream_event`). */
export interface TwinlineMessage {
  readonly type: 'system' | 'assistant' | 'user' | 'result' | 'stream_event';
  readonly subtype?: string;
  readonly session_id?: string;
  readonly uuid?: string;
  readonly [field: string]: unknown;
}

/** The `result` ending a turn. */
export interface TwinlineResult extends TwinlineMessage {
  readonly type: 'result';
  readonly subtype: 'success' | 'error_during_execution' | 'error_max_turns';
  readonly is_error: boolean;
  readonly result?: string;
  readonly errors?: readonly string[];
  readonly permission_denials: readonly { tool_name: string; tool_use_id: string; tool_input: unknown }[];
}

/** Something the SDK itself reports during a run (not a message the engine wrote). */
export interface TwinlineNotice {
  readonly type: 'notice';
  readonly code: 'permission_timeout' | 'permission_handler_failed' | 'protocol_error';
  readonly message: string;
  readonly toolUseId?: string;
}

export type TwinlineEvent = TwinlineMessage | TwinlineNotice;

/** A tool call the engine is about to decide, as a `pre_tool_use` hook sees it. */
export interface PreToolUseEvent {
  readonly toolName: string;
  readonly input: unknown;
  readonly toolUseId: string | undefined;
  /** Aborted when the engine stops waiting (the hook's timeout, an interrupt, shutdown). */
  readonly signal: AbortSignal;
}

/**
 * A `pre_tool_use` hook's answer. It can only make the engine stricter: `deny` refuses the call,
 * `ask` puts it to the permission handler even where the mode would run it, `allow` is no
 * objection (the gateway still decides). `updatedInput` is a new call, decided again from the start.
 */
export type PreToolUseDecision =
  | 'allow'
  | 'deny'
  | 'ask'
  | {
      readonly decision: 'allow' | 'deny' | 'ask';
      readonly reason?: string;
      readonly updatedInput?: Record<string, unknown>;
    };

export type PreToolUseHandler = (event: PreToolUseEvent) => PreToolUseDecision | Promise<PreToolUseDecision>;
