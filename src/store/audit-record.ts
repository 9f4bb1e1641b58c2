import type { DecidedBy, StageDecision } from '../core/index.js';

/** The final outcome of one attempted tool call, as the audit records it. */
export type CallStatus =
  | 'executed'
  | 'denied'
  | 'ask'
  | 'review'
  | 'failed'
  | 'timeout'
  | 'cancelled'
  | 'rate_limited';

/**
 * Exactly one record per attempted call — allowed, denied, failed, timed out. Arguments are kept
 * as a SHA-256 of their canonical JSON and, in the decision log, only as the tool's tags redact
 * them at the audit's data level (docs/operations.md, "Decision log"), so the audit never becomes
 * a second copy of the data.
 */
export interface AuditRecord {
  readonly id: string;
  /** ISO-8601 time the call was attempted. */
  readonly time: string;
  readonly tenant: string;
  readonly user: string;
  readonly sessionId: string;
  /** Agent name (`main` for the top-level agent). */
  readonly agent: string;
  /** Line / audit domain: `deep`, `quick`, `readonly`, `main`, `cli`, … */
  readonly domain: string;
  readonly tool: string;
  readonly callId: string;
  readonly argsHash: string;
  readonly status: CallStatus;
  /** Every stage's verdict, in order, ending with the deciding one. */
  readonly decisionPath: readonly StageDecision[];
  /** Short, redacted summary of the result or the error. */
  readonly resultSummary: string;
  readonly durationMs: number;
  /** Session watermark id, when the session has one. */
  readonly watermark?: string;
  readonly taskId?: string;
  /**
   * The sandbox profile the call's processes ran under (`read-only`, `workspace-write`, `network`,
   * `unconfined`); absent for tools that start no process. See docs/sandbox.md.
   */
  readonly sandbox?: string;
  /** The decision that decided the call: for an executed call the grant that allowed it. */
  readonly decidedBy?: DecidedBy;
  /** The arguments redacted for `argsLevel` (field tags, then PII in free text). */
  readonly args?: unknown;
  /** The data level the arguments were redacted for. */
  readonly argsLevel?: string;
  /** The review this call was queued for, or that approved it (its replay). */
  readonly reviewId?: string;
  /** Set when reading: the stored decision log could not be read (the record is otherwise whole). */
  readonly decisionLogError?: string;
}

/** Where the gateway writes audit records. `record` must never block or throw on the decision path. */
export interface AuditSink {
  record(rec: AuditRecord): void;
  /** Resolves when every record handed to `record` so far is durable. */
  flush(): Promise<void>;
}
