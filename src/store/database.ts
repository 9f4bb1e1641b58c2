import type { Kysely } from 'kysely';

/**
 * Row shapes of every table, as both dialects store them. Times are ISO-8601 UTC strings
 * (`Date#toISOString`, so lexical order is time order); JSON values are TEXT holding JSON, which
 * keeps one query layer valid on SQLite and PostgreSQL alike.
 */
export interface Database {
  audit_records: AuditRecordsTable;
  reviews: ReviewsTable;
  tickets: TicketsTable;
  tasks: TasksTable;
  task_steps: TaskStepsTable;
  raw_outputs: RawOutputsTable;
  idempotency_keys: IdempotencyKeysTable;
  deep_admission_slots: DeepAdmissionSlotsTable;
}

/** The Kysely instance a `Store` exposes. */
export type StoreDb = Kysely<Database>;

export interface AuditRecordsTable {
  id: string;
  time: string;
  tenant: string;
  user_id: string;
  session_id: string;
  agent: string;
  domain: string;
  tool: string;
  call_id: string;
  args_hash: string;
  status: string;
  /** JSON array of StageDecision. */
  decision_path: string;
  result_summary: string;
  duration_ms: number;
  watermark: string | null;
  task_id: string | null;
  sandbox: string | null;
  /** The deciding (for executed calls: the granting) decision's stage and rule, for filters. */
  decided_stage: string | null;
  decided_rule: string | null;
  review_id: string | null;
  /** JSON `DecisionLog` (src/store/decision-log.ts), versioned; null on rows written before it. */
  decision_log: string | null;
}

export interface ReviewsTable {
  id: string;
  tenant: string;
  user_id: string;
  session_id: string;
  agent: string;
  domain: string;
  tool: string;
  /** JSON. */
  args: string;
  /** JSON snapshot of the Identity at the time of the request. */
  identity: string;
  reason: string;
  /** JSON array of StageDecision. */
  decision_path: string;
  status: string;
  created_at: string;
  updated_at: string;
  expires_at: string;
  decided_by: string | null;
  decided_at: string | null;
  decision_note: string | null;
  result_summary: string | null;
  completed_at: string | null;
  /** The deep task the call belongs to (rows written before migration 006: null). */
  task_id: string | null;
  /** `tool_call` or `input` (src/store/review-record.ts); rows written before migration 007: null. */
  kind: string | null;
}

export interface TicketsTable {
  id: string;
  tenant: string;
  user_id: string;
  session_id: string | null;
  request: string;
  reason: string;
  status: string;
  created_at: string;
}

export interface TasksTable {
  id: string;
  tenant: string;
  user_id: string;
  line: string;
  status: string;
  request: string;
  /** JSON, null until planned. */
  plan: string | null;
  current_step: number;
  created_at: string;
  updated_at: string;
  lease_owner: string | null;
  lease_until: string | null;
}

export interface TaskStepsTable {
  task_id: string;
  step_no: number;
  tenant: string;
  status: string;
  goal: string;
  tool: string | null;
  /** JSON. */
  params: string | null;
  /** 0 / 1. */
  params_validated: number;
  idempotency_key: string | null;
  output_summary: string | null;
  raw_output_ref: string | null;
  error: string | null;
  started_at: string | null;
  finished_at: string | null;
}

export interface RawOutputsTable {
  id: string;
  task_id: string;
  step_no: number;
  tenant: string;
  content: string;
  created_at: string;
}

export interface IdempotencyKeysTable {
  tenant: string;
  key: string;
  task_id: string | null;
  step_no: number | null;
  created_at: string;
}

/** A deep-line admission slot held by one process for one task (see `admission-slots.ts`). */
export interface DeepAdmissionSlotsTable {
  id: string;
  tenant: string;
  user_id: string;
  owner: string;
  lease_until: string;
}
