import { randomUUID } from 'node:crypto';
import type { Identity, StageDecision } from '../core/index.js';
import type { StoreDb } from './database.js';
import { INPUT_REVIEW_NAME, type ReviewItem, type ReviewStatus, reviewFromRow } from './review-record.js';
import { restrictToTenant, type TenantScope, tenantForWrite } from './tenant-scope.js';

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

/** A request the input gate flagged, to be queued for a reviewer. */
export interface InputReviewRequest {
  readonly kind: 'input';
  /** Required in the admin view; must match (or may be omitted) in a tenant-bound repository. */
  readonly tenant?: string;
  readonly user: string;
  readonly sessionId: string;
  readonly identity: Identity;
  /** The flagged request's text. */
  readonly query: string;
  readonly reason: string;
  /** ISO-8601. */
  readonly expiresAt: string;
}

export interface ReviewDecision {
  readonly decision: 'approved' | 'denied';
  readonly by: string;
  readonly note?: string;
}

/** The review queue within a tenant scope. Every transition is one conditional UPDATE. */
export interface ReviewRepository {
  /** Queues a parked tool call, or (`kind: 'input'`) a flagged request. */
  enqueue(item: ReviewRequest | InputReviewRequest): Promise<{ id: string }>;
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
      const input = 'kind' in item && item.kind === 'input';
      const call = input ? undefined : (item as ReviewRequest);
      await db
        .insertInto('reviews')
        .values({
          id,
          tenant,
          user_id: item.user,
          session_id: item.sessionId,
          agent: call ? call.agent : 'input_gate',
          domain: call ? call.domain : 'input',
          tool: call ? call.tool : INPUT_REVIEW_NAME,
          kind: call ? 'tool_call' : 'input',
          args: JSON.stringify(call ? (call.args ?? null) : { query: (item as InputReviewRequest).query }),
          identity: JSON.stringify(item.identity),
          reason: item.reason,
          decision_path: JSON.stringify(call ? call.decisionPath : []),
          status: 'pending',
          created_at: now,
          updated_at: now,
          expires_at: new Date(item.expiresAt).toISOString(),
          decided_by: null,
          decided_at: null,
          decision_note: null,
          result_summary: null,
          completed_at: null,
          task_id: call?.taskId ?? null,
        })
        .execute();
      return { id };
    },

    async get(id) {
      const row = await restrictToTenant(db.selectFrom('reviews').selectAll(), scope, 'reviews.get')
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? reviewFromRow(row) : undefined;
    },

    async list(filter = {}) {
      let q = restrictToTenant(db.selectFrom('reviews').selectAll(), scope, 'reviews.list', filter.tenant);
      if (filter.status !== undefined) q = q.where('status', '=', filter.status);
      if (filter.user !== undefined) q = q.where('user_id', '=', filter.user);
      const limit = Math.min(10_000, Math.max(1, Math.floor(filter.limit ?? 100)));
      const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      return rows.map(reviewFromRow);
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
