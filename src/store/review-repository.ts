import { randomUUID } from 'node:crypto';
import type { Identity, StageDecision } from '../core/index.js';
import type { ReviewsTable, StoreDb } from './database.js';
import { restrictToTenant, type TenantScope, tenantForWrite } from './tenant-scope.js';

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

/** A call the gateway parked for a human decision. */
export interface ReviewRequest {
  /** Required in the admin view; must match (or may be omitted) in a tenant-bound repository. */
  readonly tenant?: string;
  readonly user: string;
  readonly sessionId: string;
  readonly agent: string;
  readonly domain: string;
  readonly tool: string;
  readonly args: unknown;
  /** Snapshot of the caller's identity, so the call can later run as the same person. */
  readonly identity: Identity;
  readonly reason: string;
  readonly decisionPath: readonly StageDecision[];
  /** ISO-8601. */
  readonly expiresAt: string;
  /** The deep task the call belongs to, when it belongs to one. */
  readonly taskId?: string;
}

export interface ReviewItem {
  readonly id: string;
  readonly tenant: string;
  readonly user: string;
  readonly sessionId: string;
  readonly agent: string;
  readonly domain: string;
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

export interface ReviewDecision {
  readonly decision: 'approved' | 'denied';
  readonly by: string;
  readonly note?: string;
}

/** The review queue within a tenant scope. Every transition is one conditional UPDATE. */
export interface ReviewRepository {
  enqueue(item: ReviewRequest): Promise<{ id: string }>;
  get(id: string): Promise<ReviewItem | undefined>;
  /** Newest first; default limit 100. `tenant` filters only in the admin view. */
  /** Newest first; `user` keeps only that user's own items (before the limit applies). */
  list(filter?: {
    tenant?: string;
    user?: string;
    status?: ReviewStatus;
    limit?: number;
  }): Promise<ReviewItem[]>;
  /** Only a pending, not yet expired item changes; `changed` says whether this call decided it. */
  decide(id: string, decision: ReviewDecision, now?: Date): Promise<{ changed: boolean }>;
  /**
   * approved → executing. True for exactly one caller, however many race (the UPDATE's
   * `WHERE status = 'approved'` is re-checked under the row lock on PostgreSQL and serialised by
   * the write lock on SQLite), so an approved call runs at most once.
   */
  claimForExecution(id: string): Promise<boolean>;
  /** executing → executed|failed. */
  complete(
    id: string,
    outcome: { status: 'executed' | 'failed'; resultSummary: string },
  ): Promise<{ changed: boolean }>;
  /** pending items whose `expiresAt` is at or before `now` → expired; returns how many. */
  expire(now?: Date): Promise<number>;
  /** How many reviews are pending in scope, and when the oldest of them was queued. */
  pendingSummary(): Promise<{ pending: number; oldestCreatedAt?: string }>;
}

export function createReviewRepository(db: StoreDb, scope: TenantScope): ReviewRepository {
  const update = (where: string) => restrictToTenant(db.updateTable('reviews'), scope, where);
  return {
    async enqueue(item) {
      const tenant = tenantForWrite(scope, item.tenant, 'reviews.enqueue');
      const id = randomUUID();
      const now = new Date().toISOString();
      await db
        .insertInto('reviews')
        .values({
          id,
          tenant,
          user_id: item.user,
          session_id: item.sessionId,
          agent: item.agent,
          domain: item.domain,
          tool: item.tool,
          args: JSON.stringify(item.args ?? null),
          identity: JSON.stringify(item.identity),
          reason: item.reason,
          decision_path: JSON.stringify(item.decisionPath),
          status: 'pending',
          created_at: now,
          updated_at: now,
          expires_at: new Date(item.expiresAt).toISOString(),
          decided_by: null,
          decided_at: null,
          decision_note: null,
          result_summary: null,
          completed_at: null,
          task_id: item.taskId ?? null,
        })
        .execute();
      return { id };
    },

    async get(id) {
      const row = await restrictToTenant(db.selectFrom('reviews').selectAll(), scope, 'reviews.get')
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? fromRow(row) : undefined;
    },

    async list(filter = {}) {
      let q = restrictToTenant(db.selectFrom('reviews').selectAll(), scope, 'reviews.list', filter.tenant);
      if (filter.status !== undefined) q = q.where('status', '=', filter.status);
      if (filter.user !== undefined) q = q.where('user_id', '=', filter.user);
      const limit = Math.min(10_000, Math.max(1, Math.floor(filter.limit ?? 100)));
      const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      return rows.map(fromRow);
    },

    async decide(id, decision, now = new Date()) {
      const at = now.toISOString();
      const result = await update('reviews.decide')
        .set({
          status: decision.decision,
          decided_by: decision.by,
          decided_at: at,
          decision_note: decision.note ?? null,
          updated_at: at,
        })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('expires_at', '>', at)
        .executeTakeFirst();
      return { changed: Number(result.numUpdatedRows) === 1 };
    },

    async claimForExecution(id) {
      const result = await update('reviews.claimForExecution')
        .set({ status: 'executing', updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .where('status', '=', 'approved')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async complete(id, outcome) {
      const at = new Date().toISOString();
      const result = await update('reviews.complete')
        .set({
          status: outcome.status,
          result_summary: outcome.resultSummary,
          completed_at: at,
          updated_at: at,
        })
        .where('id', '=', id)
        .where('status', '=', 'executing')
        .executeTakeFirst();
      return { changed: Number(result.numUpdatedRows) === 1 };
    },

    async pendingSummary() {
      const row = await restrictToTenant(
        db
          .selectFrom('reviews')
          .select((eb) => [eb.fn.countAll<string | number>().as('n'), eb.fn.min('created_at').as('oldest')]),
        scope,
        'reviews.pendingSummary',
      )
        .where('status', '=', 'pending')
        .executeTakeFirst();
      const pending = Number(row?.n ?? 0);
      return { pending, ...(pending > 0 && row?.oldest ? { oldestCreatedAt: String(row.oldest) } : {}) };
    },

    async expire(now = new Date()) {
      const at = now.toISOString();
      const result = await update('reviews.expire')
        .set({ status: 'expired', updated_at: at })
        .where('status', '=', 'pending')
        .where('expires_at', '<=', at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}

function fromRow(row: ReviewsTable): ReviewItem {
  return {
    id: row.id,
    tenant: row.tenant,
    user: row.user_id,
    sessionId: row.session_id,
    agent: row.agent,
    domain: row.domain,
    tool: row.tool,
    args: JSON.parse(row.args) as unknown,
    identity: JSON.parse(row.identity) as Identity,
    reason: row.reason,
    decisionPath: JSON.parse(row.decision_path) as StageDecision[],
    status: row.status as ReviewStatus,
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
}
