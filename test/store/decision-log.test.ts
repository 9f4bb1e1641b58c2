import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrateToLatest, openStore, type StoreDialect } from '../../src/store/index.js';
import { createTestDatabase, type TestDatabase } from './postgres-test-database.js';

// Migration 004 (the decision log) on a database written before it, on SQLite and PostgreSQL:
// old rows keep their hash only and get their "decided by" and review from what they hold; new
// rows carry a versioned log; a log that does not parse is reported on the record, not guessed.

const OLD_PATH = JSON.stringify([
  { verdict: 'allow', stage: 'access', ruleId: 'access.allowed', reason: 'ok' },
  { verdict: 'allow', stage: 'policy', ruleId: 'grant.finance_analyst', reason: 'granted' },
  { verdict: 'allow', stage: 'breaker', ruleId: 'resilience.circuit-closed', reason: 'Circuit closed.' },
]);

function oldRow(id: string, status: string, summary: string, callId = `c-${id}`) {
  return {
    id,
    time: `2026-11-0${id.slice(-1)}T10:00:00.000Z`,
    tenant: 'acme',
    user_id: 'carol',
    session_id: 's',
    agent: 'main',
    domain: 'deep',
    tool: 'billing_report_query',
    call_id: callId,
    args_hash: 'h',
    status,
    decision_path:
      status === 'executed'
        ? OLD_PATH
        : JSON.stringify([
            JSON.parse(OLD_PATH)[0],
            { verdict: 'review', stage: 'review', ruleId: 'review.required', reason: 'wait' },
          ]),
    result_summary: summary,
    duration_ms: 1.5,
    watermark: null,
    task_id: null,
  };
}

async function upgrade(db: Kysely<unknown>, dialect: StoreDialect) {
  // The schema as it was before the decision log, with rows written then.
  await migrateToLatest(db, dialect, MIGRATIONS.slice(0, 3));
  const rows = [
    oldRow('r1', 'executed', '{"rows":3}'),
    oldRow('r2', 'review', 'queued for review rev-42'),
    oldRow('r3', 'executed', '{"rows":1}', 'review-rev-42'),
  ];
  for (const r of rows)
    await (db as Kysely<Record<string, unknown>>)
      .insertInto('audit_records' as never)
      .values(r as never)
      .execute();
  expect(await migrateToLatest(db, dialect)).toEqual(MIGRATIONS.slice(3).map((m) => m.name));
  const back = await sql<{
    id: string;
    decided_stage: string | null;
    decided_rule: string | null;
    review_id: string | null;
    decision_log: string | null;
  }>`
    select id, decided_stage, decided_rule, review_id, decision_log from audit_records order by id`.execute(
    db,
  );
  expect(back.rows).toEqual([
    {
      id: 'r1',
      decided_stage: 'policy',
      decided_rule: 'grant.finance_analyst',
      review_id: null,
      decision_log: null,
    },
    {
      id: 'r2',
      decided_stage: 'review',
      decided_rule: 'review.required',
      review_id: 'rev-42',
      decision_log: null,
    },
    {
      id: 'r3',
      decided_stage: 'policy',
      decided_rule: 'grant.finance_analyst',
      review_id: 'rev-42',
      decision_log: null,
    },
  ]);
}

describe('migration 006_audit_decision_log', () => {
  it('SQLite: fills decided-by and review of rows written before it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'twinline-m004-'));
    const db = new Kysely<unknown>({
      dialect: new SqliteDialect({ database: new Database(join(dir, 'db.sqlite')) }),
    });
    try {
      await upgrade(db, 'sqlite');
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  let pgdb: TestDatabase | undefined;
  afterAll(async () => {
    await pgdb?.drop();
  });
  it('PostgreSQL: the same, on a database of its own', async (ctx) => {
    pgdb = await createTestDatabase();
    if (!pgdb) return ctx.skip();
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: pgdb.url, max: 2 }) }),
    });
    try {
      await upgrade(db, 'postgres');
    } finally {
      await db.destroy();
    }
  });
});

describe('reading the decision log', () => {
  it('reads old rows from their path, new rows from their log, and reports a log it cannot read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'twinline-dlog-'));
    const file = join(dir, 'store.sqlite');
    const store = await openStore({ sqliteFile: file, env: {} });
    try {
      const base = {
        tenant: 'acme',
        user: 'carol',
        sessionId: 's',
        agent: 'main',
        domain: 'deep',
        tool: 'billing_report_query',
        callId: 'c',
        argsHash: 'h',
        decisionPath: JSON.parse(OLD_PATH),
        resultSummary: 'ok',
        durationMs: 1,
      };
      store.audit.record({
        ...base,
        id: '0190a000-0000-7000-8000-000000000001',
        time: '2026-11-02T00:00:00.000Z',
        status: 'executed',
        decidedBy: { stage: 'policy', ruleId: 'grant.finance_analyst', reason: 'granted', verdict: 'allow' },
        args: { project: 'atlas' },
        argsLevel: 'L3',
        reviewId: 'rev-1',
      });
      store.audit.record({
        ...base,
        id: '0190a000-0000-7000-8000-000000000002',
        time: '2026-11-01T00:00:00.000Z',
        status: 'executed',
      });
      await store.audit.flush();
      const [fresh, plain] = await store.audit.query({ limit: 10 });
      expect(fresh).toMatchObject({ args: { project: 'atlas' }, argsLevel: 'L3', reviewId: 'rev-1' });
      expect(fresh!.decidedBy!.ruleId).toBe('grant.finance_analyst');
      // No log written: "decided by" still comes from the path.
      expect(plain!.decidedBy).toMatchObject({ stage: 'policy', ruleId: 'grant.finance_analyst' });
      expect(plain!.args).toBeUndefined();
      expect((await store.audit.query({ reviewId: 'rev-1' })).map((r) => r.id)).toEqual([fresh!.id]);
      expect((await store.audit.query({ rule: 'grant.finance_analyst', stage: 'policy' })).length).toBe(1);
      expect(await store.audit.get(fresh!.id)).toEqual(fresh);
      expect(await store.forTenant('globex').audit.get(fresh!.id)).toBeUndefined();

      const raw = new Database(file);
      raw.prepare('update audit_records set decision_log = \'{"version":9}\' where id = ?').run(fresh!.id);
      raw.prepare("update audit_records set decision_log = 'not json' where id = ?").run(plain!.id);
      raw.close();
      const [v9, broken] = await store.audit.query({ limit: 10 });
      expect(v9!.decisionLogError).toMatch(/does not match version 1: version/);
      expect(v9!.args).toBeUndefined();
      expect(broken!.decisionLogError).toMatch(/not JSON/);
      expect(broken!.status).toBe('executed');
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
