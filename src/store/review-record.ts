import { z } from 'zod';
import { DATA_LEVELS, type Identity, type StageDecision } from '../core/index.js';
import type { ReviewsTable } from './database.js';
import { checkStored, parseStoredJson, type StoredAt } from './stored-state.js';

/** Lifecycle of a queued call: pending → approved|denied|expired; approved → executing → executed|failed. */
export const REVIEW_STATUSES = [
  'pending',
  'approved',
  'denied',
  'executing',
  'executed',
  'failed',
  'expired',
] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** What a review holds: a tool call the gateway parked, or a request the input gate flagged. */
export const REVIEW_KINDS = ['tool_call', 'input'] as const;
export type ReviewKind = (typeof REVIEW_KINDS)[number];

/**
 * The name an input review is listed and audited under (the `tool` column, the audit's `tool`):
 * a label for people and filters, never a tool anything dispatches to — `kind` says what it is.
 */
export const INPUT_REVIEW_NAME = 'twinline.input';

const attributeValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

/** An identity as a row keeps it (the snapshot taken when the call was queued). */
export const storedIdentitySchema = z.looseObject({
  tenant: z.string().min(1),
  user: z.string().min(1),
  roles: z.array(z.string()),
  dataLevel: z.enum(DATA_LEVELS),
  attributes: z.record(z.string(), attributeValue),
});

/** A stage decision as a row keeps it (a review's or an audit record's decision path). */
export const storedDecisionSchema: z.ZodType<StageDecision> = z.looseObject({
  verdict: z.enum(['allow', 'deny', 'ask', 'review']),
  stage: z.string(),
  ruleId: z.string(),
  reason: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
  updatedArgs: z.unknown().optional(),
  sandbox: z
    .looseObject({
      profile: z.enum(['read-only', 'workspace-write', 'network', 'unconfined']),
      allowedDomains: z.array(z.string()).optional(),
      deniedDomains: z.array(z.string()).optional(),
    })
    .optional(),
  get reenter() {
    return storedDecisionSchema.optional();
  },
}) as z.ZodType<StageDecision>;

const decisionPathSchema = z.array(storedDecisionSchema);
const inputArgsSchema = z.strictObject({ query: z.string() });

interface ReviewBase {
  readonly id: string;
  readonly tenant: string;
  readonly user: string;
  readonly sessionId: string;
  readonly agent: string;
  readonly domain: string;
  /** What the review is listed under: the tool's name, or `INPUT_REVIEW_NAME`. */
  readonly tool: string;
  readonly args: unknown;
  readonly identity: Identity;
  readonly reason: string;
  readonly decisionPath: StageDecision[];
  readonly status: ReviewStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly expiresAt: string;
  readonly decidedBy?: string;
  readonly decidedAt?: string;
  readonly decisionNote?: string;
  readonly resultSummary?: string;
  readonly completedAt?: string;
  readonly taskId?: string;
}

/** A tool call the gateway parked for a human decision; approved, it runs through a replay gateway. */
export interface ToolCallReview extends ReviewBase {
  readonly kind: 'tool_call';
}

/** A request the input gate flagged; cleared, it takes the normal path as its author's. */
export interface InputReview extends ReviewBase {
  readonly kind: 'input';
  readonly tool: typeof INPUT_REVIEW_NAME;
  readonly args: { readonly query: string };
  /** The flagged request's text. */
  readonly query: string;
}

/** A review as the queue holds it. */
export type ReviewItem = ToolCallReview | InputReview;

/**
 * The one reader of a `reviews` row (docs/architecture.md, "Versioned stored state"). Version 1
 * rows (written before the `kind` column) are input reviews when listed under `INPUT_REVIEW_NAME`
 * and tool calls otherwise; version 2 rows say which. Every JSON column is checked: a malformed
 * row is a `StoredStateError` naming the review and the field.
 */
export function reviewFromRow(row: ReviewsTable): ReviewItem {
  const at = (field: string): StoredAt => ({ kind: 'review', row: row.id, field: `reviews.${field}` });
  const json = <S extends z.ZodType>(schema: S, field: 'args' | 'identity' | 'decision_path') =>
    checkStored(schema, parseStoredJson(row[field], at(field)), at(field));
  const kind =
    row.kind === null || row.kind === undefined
      ? row.tool === INPUT_REVIEW_NAME
        ? 'input'
        : 'tool_call'
      : checkStored(z.enum(REVIEW_KINDS), row.kind, at('kind'));
  const status = checkStored(z.enum(REVIEW_STATUSES), row.status, at('status'));
  const base = {
    id: row.id,
    tenant: row.tenant,
    user: row.user_id,
    sessionId: row.session_id,
    agent: row.agent,
    domain: row.domain,
    identity: json(storedIdentitySchema, 'identity'),
    reason: row.reason,
    decisionPath: json(decisionPathSchema, 'decision_path'),
    status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
    ...(row.decided_by !== null ? { decidedBy: row.decided_by } : {}),
    ...(row.decided_at !== null ? { decidedAt: row.decided_at } : {}),
    ...(row.decision_note !== null ? { decisionNote: row.decision_note } : {}),
    ...(row.result_summary !== null ? { resultSummary: row.result_summary } : {}),
    ...(row.completed_at !== null ? { completedAt: row.completed_at } : {}),
    ...(row.task_id != null ? { taskId: row.task_id } : {}),
  };
  if (kind === 'input') {
    const args = json(inputArgsSchema, 'args');
    return { ...base, kind, tool: INPUT_REVIEW_NAME, args, query: args.query };
  }
  return { ...base, kind, tool: row.tool, args: json(z.unknown(), 'args') };
}
