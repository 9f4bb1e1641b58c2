import { CompiledQuery } from 'kysely';
import { z } from 'zod';
import type { AuditRecord, CallStatus } from './audit-record.js';
import type { AuditRecordsTable, StoreDb } from './database.js';
import { decisionLogJson, readDecisionLog } from './decision-log.js';
import { storedDecisionSchema } from './review-record.js';
import { checkStored, parseStoredJson } from './stored-state.js';
import { restrictToTenant, type TenantScope } from './tenant-scope.js';

/** Filter of an audit query. Times are ISO-8601; `since` inclusive, `until` exclusive. */
export interface AuditQuery {
  /** Only in the admin view; a tenant-bound reader already filters by its tenant. */
  readonly tenant?: string;
  readonly user?: string;
  readonly tool?: string;
  readonly since?: string;
  readonly until?: string;
  readonly status?: CallStatus;
  /** The stage of the deciding decision (for executed calls: the grant's). */
  readonly stage?: string;
  /** The rule id of the deciding decision (for executed calls: the grant's). */
  readonly rule?: string;
  /** The line / audit domain. */
  readonly domain?: string;
  readonly sessionId?: string;
  readonly taskId?: string;
  /** Records of one review: the call it queued, and the approved call's run. */
  readonly reviewId?: string;
  /** Default 100, at most 10 000. */
  readonly limit?: number;
}

/** Reads the audit trail, newest first, within a tenant scope. */
export interface AuditReader {
  query(filter?: AuditQuery): Promise<AuditRecord[]>;
  /** One record by id, within the scope. */
  get(id: string): Promise<AuditRecord | undefined>;
}

const MAX_LIMIT = 10_000;

/** Column order of an audit row; `toRow` produces every one of them. */
const AUDIT_COLUMNS = [
  'id',
  'time',
  'tenant',
  'user_id',
  'session_id',
  'agent',
  'domain',
  'tool',
  'call_id',
  'args_hash',
  'status',
  'decision_path',
  'result_summary',
  'duration_ms',
  'watermark',
  'task_id',
  'sandbox',
  'decided_stage',
  'decided_rule',
  'review_id',
  'decision_log',
] as const satisfies readonly (keyof AuditRecordsTable)[];

/** Compiled INSERT text per database and batch length: compiling 256 rows costs more than sending them. */
const insertSqlCache = new WeakMap<StoreDb, Map<number, string>>();

/** Writes one batch as one multi-row INSERT (one statement, so one transaction). Re-sent records are ignored by id. */
export async function insertAuditBatch(db: StoreDb, batch: readonly AuditRecord[]): Promise<void> {
  if (batch.length === 0) return;
  const rows = batch.map(toRow);
  const parameters = rows.flatMap((row) => AUDIT_COLUMNS.map((column) => row[column]));
  let cache = insertSqlCache.get(db);
  if (!cache) {
    cache = new Map();
    insertSqlCache.set(db, cache);
  }
  const cached = cache.get(rows.length);
  if (cached !== undefined) {
    await db.executeQuery(CompiledQuery.raw(cached, parameters));
    return;
  }
  const compiled = db
    .insertInto('audit_records')
    .values(rows)
    .onConflict((oc) => oc.column('id').doNothing())
    .compile();
  // Reuse the text only if Kysely laid the parameters out exactly as we do.
  if (
    compiled.parameters.length === parameters.length &&
    compiled.parameters.every((value, i) => value === parameters[i])
  ) {
    cache.set(rows.length, compiled.sql);
  }
  await db.executeQuery(compiled);
}

/**
 * The SQLite audit batch write: one prepared single-row INSERT, run for every record inside one
 * transaction. Preparing once beats compiling a multi-row statement per batch (each batch has its
 * own length), and binding the values directly skips building row objects and parameter arrays.
 * The transaction runs while holding Kysely's connection, so it never interleaves with a Kysely
 * transaction. Re-sent records are ignored by id, as with `insertAuditBatch`.
 */
export function sqliteAuditBatchWriter(
  db: StoreDb,
  sqlite: import('better-sqlite3').Database,
): (batch: readonly AuditRecord[]) => Promise<void> {
  let insertAll: ((batch: readonly AuditRecord[]) => void) | undefined;
  const prepare = () => {
    const columns = AUDIT_COLUMNS.map((c) => `"${c}"`).join(', ');
    const insert = sqlite.prepare(
      `insert into "audit_records" (${columns}) values (${AUDIT_COLUMNS.map(() => '?').join(', ')}) on conflict ("id") do nothing`,
    );
    // Same column order as AUDIT_COLUMNS, same values as `toRow`.
    return sqlite.transaction((batch: readonly AuditRecord[]) => {
      for (const r of batch) {
        insert.run(
          r.id,
          r.time,
          r.tenant,
          r.user,
          r.sessionId,
          r.agent,
          r.domain,
          r.tool,
          r.callId,
          r.argsHash,
          r.status,
          JSON.stringify(r.decisionPath),
          r.resultSummary,
          r.durationMs,
          r.watermark ?? null,
          r.taskId ?? null,
          r.sandbox ?? null,
          r.decidedBy?.stage ?? null,
          r.decidedBy?.ruleId ?? null,
          r.reviewId ?? null,
          decisionLogJson(r),
        );
      }
    });
  };
  return async (batch) => {
    if (batch.length === 0) return;
    await db.connection().execute(async () => {
      insertAll ??= prepare();
      insertAll(batch);
    });
  };
}

/** An audit reader bound to a tenant scope. */
export function createAuditReader(db: StoreDb, scope: TenantScope): AuditReader {
  return {
    async query(filter = {}) {
      let q = restrictToTenant(
        db.selectFrom('audit_records').selectAll(),
        scope,
        'audit.query',
        filter.tenant,
      );
      if (filter.user !== undefined) q = q.where('user_id', '=', filter.user);
      if (filter.tool !== undefined) q = q.where('tool', '=', filter.tool);
      if (filter.status !== undefined) q = q.where('status', '=', filter.status);
      if (filter.since !== undefined) q = q.where('time', '>=', filter.since);
      if (filter.until !== undefined) q = q.where('time', '<', filter.until);
      if (filter.stage !== undefined) q = q.where('decided_stage', '=', filter.stage);
      if (filter.rule !== undefined) q = q.where('decided_rule', '=', filter.rule);
      if (filter.domain !== undefined) q = q.where('domain', '=', filter.domain);
      if (filter.sessionId !== undefined) q = q.where('session_id', '=', filter.sessionId);
      if (filter.taskId !== undefined) q = q.where('task_id', '=', filter.taskId);
      if (filter.reviewId !== undefined) q = q.where('review_id', '=', filter.reviewId);
      const limit = Math.min(MAX_LIMIT, Math.max(1, Math.floor(filter.limit ?? 100)));
      const rows = await q.orderBy('time', 'desc').orderBy('id', 'desc').limit(limit).execute();
      return rows.map(fromRow);
    },
    async get(id) {
      const row = await restrictToTenant(db.selectFrom('audit_records').selectAll(), scope, 'audit.get')
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? fromRow(row) : undefined;
    },
  };
}

function toRow(r: AuditRecord): AuditRecordsTable {
  return {
    id: r.id,
    time: r.time,
    tenant: r.tenant,
    user_id: r.user,
    session_id: r.sessionId,
    agent: r.agent,
    domain: r.domain,
    tool: r.tool,
    call_id: r.callId,
    args_hash: r.argsHash,
    status: r.status,
    decision_path: JSON.stringify(r.decisionPath),
    result_summary: r.resultSummary,
    duration_ms: r.durationMs,
    watermark: r.watermark ?? null,
    task_id: r.taskId ?? null,
    sandbox: r.sandbox ?? null,
    decided_stage: r.decidedBy?.stage ?? null,
    decided_rule: r.decidedBy?.ruleId ?? null,
    review_id: r.reviewId ?? null,
    decision_log: decisionLogJson(r),
  };
}

function fromRow(row: AuditRecordsTable): AuditRecord {
  const status = row.status as CallStatus;
  const at = { kind: 'audit record', row: row.id, field: 'audit_records.decision_path' };
  const decisionPath = checkStored(z.array(storedDecisionSchema), parseStoredJson(row.decision_path, at), at);
  return {
    id: row.id,
    time: row.time,
    tenant: row.tenant,
    user: row.user_id,
    sessionId: row.session_id,
    agent: row.agent,
    domain: row.domain,
    tool: row.tool,
    callId: row.call_id,
    argsHash: row.args_hash,
    status,
    decisionPath,
    resultSummary: row.result_summary,
    durationMs: Number(row.duration_ms),
    ...(row.watermark !== null ? { watermark: row.watermark } : {}),
    ...(row.task_id !== null ? { taskId: row.task_id } : {}),
    ...(row.sandbox !== null && row.sandbox !== undefined ? { sandbox: row.sandbox } : {}),
    ...(row.review_id !== null ? { reviewId: row.review_id } : {}),
    ...readDecisionLog(row.decision_log ?? null, status, decisionPath),
  };
}
