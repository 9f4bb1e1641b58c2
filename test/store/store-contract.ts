import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide, type Identity } from '../../src/core/index.js';
import {
  type AuditRecord,
  MIGRATION_TABLE,
  MIGRATIONS,
  type OpenStoreOptions,
  type ReviewRequest,
  type Store,
  TenantScopeError,
} from '../../src/store/index.js';

/** How a dialect's test file opens stores on one shared database. */
export interface StoreTestTarget {
  /** Options that open the shared database of this test file. */
  readonly options: OpenStoreOptions;
  /** Runs a statement outside the store under test (to break and repair the audit table). */
  readonly cleanup: () => Promise<void>;
}

/** The one suite every dialect must pass. */
export function defineStoreContract(label: string, target: () => Promise<StoreTestTarget>): void {
  describe(`store contract (${label})`, () => {
    let t: StoreTestTarget;
    let store: Store;
    const open = (extra: Partial<OpenStoreOptions> = {}) =>
      import('../../src/store/index.js').then((m) => m.openStore({ ...t.options, ...extra }));

    beforeAll(async () => {
      t = await target();
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
      await t?.cleanup();
    });

    it('opens with the expected dialect', () => {
      expect(store.dialect).toBe(label);
    });

    it('migrations are idempotent, also when several openers race', async () => {
      const again = await Promise.all([open(), open(), open()]);
      await Promise.all(again.map((s) => s.close()));
      const rows = await sql<{
        name: string;
      }>`select name from ${sql.table(MIGRATION_TABLE)} order by name`.execute(store.db);
      expect(rows.rows.map((r) => r.name)).toEqual(MIGRATIONS.map((m) => m.name));
    });

    it('writes exactly 5,000 audit records from concurrent producers', async () => {
      const tenant = `t-${randomUUID()}`;
      const producers = 20;
      const each = 250;
      await Promise.all(
        Array.from({ length: producers }, async (_, p) => {
          for (let i = 0; i < each; i++) {
            store.audit.record(auditRecord(tenant, { user: `u${p}`, tool: `tool${i % 3}` }));
            if (i % 17 === 0) await new Promise((r) => setImmediate(r));
          }
        }),
      );
      await store.audit.flush();
      expect(await countAudit(store, tenant)).toBe(producers * each);
      expect(store.audit.stats().dropped).toBe(0);
      expect(store.audit.stats().pending).toBe(0);
    });

    it('queries the audit newest first with filters and a JSON decision path', async () => {
      const tenant = `t-${randomUUID()}`;
      const base = Date.parse('2026-01-01T00:00:00.000Z');
      for (let i = 0; i < 10; i++) {
        store.audit.record(
          auditRecord(tenant, {
            time: new Date(base + i * 1000).toISOString(),
            user: i % 2 ? 'odd' : 'even',
            status: i === 9 ? 'denied' : 'executed',
            ...(i === 0 ? { watermark: 'wm-1', taskId: 'task-1', sandbox: 'workspace-write' } : {}),
          }),
        );
      }
      await store.audit.flush();
      const all = await store.audit.query({ tenant });
      expect(all.map((r) => r.time)).toEqual([...all.map((r) => r.time)].sort().reverse());
      expect(all).toHaveLength(10);
      expect(all[9]?.decisionPath).toEqual([decide('allow', 'policy', 'rbac.ok', 'role may call')]);
      expect(all[9]?.watermark).toBe('wm-1');
      expect(all[9]?.taskId).toBe('task-1');
      expect(all[9]?.sandbox).toBe('workspace-write');
      expect(all[0]).not.toHaveProperty('watermark');
      expect(all[0]).not.toHaveProperty('sandbox');
      expect(await store.audit.query({ tenant, user: 'odd' })).toHaveLength(5);
      expect(await store.audit.query({ tenant, status: 'denied' })).toHaveLength(1);
      expect(await store.audit.query({ tenant, limit: 3 })).toHaveLength(3);
      const window = await store.audit.query({
        tenant,
        since: new Date(base + 2000).toISOString(),
        until: new Date(base + 5000).toISOString(),
      });
      expect(window).toHaveLength(3);
      const scoped = await store.forTenant(tenant).audit.query({ user: 'even' });
      expect(scoped).toHaveLength(5);
      expect(await store.forTenant(`other-${randomUUID()}`).audit.query()).toHaveLength(0);
    });

    it('loses no audit record while the table is unwritable, and writes them all after recovery', async () => {
      const writer = await open({ audit: { minBackoffMs: 5, maxBackoffMs: 40 } });
      try {
        const tenant = `t-${randomUUID()}`;
        await sql`alter table audit_records rename to audit_records_away`.execute(store.db);
        try {
          for (let i = 0; i < 700; i++) writer.audit.record(auditRecord(tenant));
          await until(() => writer.audit.stats().failedWrites >= 2);
          expect(writer.audit.stats().written).toBe(0);
        } finally {
          await sql`alter table audit_records_away rename to audit_records`.execute(store.db);
        }
        await writer.audit.flush();
        expect(await countAudit(store, tenant)).toBe(700);
        expect(writer.audit.stats()).toMatchObject({ dropped: 0, pending: 0, written: 700 });
      } finally {
        await writer.close();
      }
    });

    it('counts drops instead of growing without bound when the database stays down', async () => {
      const writer = await open({
        audit: { batchSize: 10, maxBuffered: 50, minBackoffMs: 5, maxBackoffMs: 20 },
      });
      const tenant = `t-${randomUUID()}`;
      await sql`alter table audit_records rename to audit_records_away`.execute(store.db);
      try {
        for (let i = 0; i < 80; i++) writer.audit.record(auditRecord(tenant));
        expect(writer.audit.stats()).toMatchObject({ recorded: 50, dropped: 30, pending: 50 });
      } finally {
        await sql`alter table audit_records_away rename to audit_records`.execute(store.db);
      }
      await writer.close();
      expect(await countAudit(store, tenant)).toBe(50);
    });

    it('close writes every record handed over before it and refuses later ones', async () => {
      const writer = await open();
      const tenant = `t-${randomUUID()}`;
      for (let i = 0; i < 300; i++) writer.audit.record(auditRecord(tenant));
      const closing = writer.close();
      for (let i = 0; i < 10; i++) writer.audit.record(auditRecord(tenant));
      await closing;
      writer.audit.record(auditRecord(tenant));
      expect(await countAudit(store, tenant)).toBe(310);
      expect(writer.audit.stats()).toMatchObject({ written: 310, dropped: 1, pending: 0 });
    });

    it('claims an approved review for execution exactly once under 50 concurrent claims', async () => {
      const claimers = await Promise.all(Array.from({ length: 4 }, () => open()));
      try {
        const stores = [store, ...claimers];
        for (let round = 0; round < 3; round++) {
          const { id } = await store.reviews.enqueue(reviewRequest(`t-${randomUUID()}`));
          expect(await store.reviews.decide(id, { decision: 'approved', by: 'boss' })).toEqual({
            changed: true,
          });
          const results = await Promise.all(
            Array.from({ length: 50 }, (_, i) => stores[i % stores.length]!.reviews.claimForExecution(id)),
          );
          expect(results.filter(Boolean)).toHaveLength(1);
          expect((await store.reviews.get(id))?.status).toBe('executing');
        }
      } finally {
        await Promise.all(claimers.map((s) => s.close()));
      }
    });

    it('claims exactly once when separate processes race for the same review', async () => {
      const { id } = await store.reviews.enqueue(reviewRequest(`t-${randomUUID()}`));
      await store.reviews.decide(id, { decision: 'approved', by: 'boss' });
      const where = t.options.url ?? t.options.sqliteFile!;
      const script = await bundledClaimWorker();
      const workers = Array.from({ length: 5 }, () =>
        spawn(process.execPath, [script, where, id], { stdio: ['pipe', 'pipe', 'inherit'] }),
      );
      const output = workers.map((w) => {
        let text = '';
        w.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        return { ready: once(w.stdout, 'data'), done: once(w, 'close'), text: () => text };
      });
      await Promise.all(output.map((o) => o.ready));
      for (const w of workers) w.stdin.write('go\n');
      await Promise.all(output.map((o) => o.done));
      rmSync(script, { force: true });
      const wins = output.map((o) => Number(/won (\d+)/.exec(o.text())?.[1]));
      expect(wins.reduce((a, b) => a + b, 0)).toBe(1);
      expect((await store.reviews.get(id))?.status).toBe('executing');
    }, 60_000);

    it('moves reviews only along the allowed transitions', async () => {
      const tenant = `t-${randomUUID()}`;
      const reviews = store.forTenant(tenant).reviews;
      const { id } = await reviews.enqueue(reviewRequest(tenant));
      const item = await reviews.get(id);
      expect(item).toMatchObject({ status: 'pending', tool: 'mail_send', args: { to: 'x@example.com' } });
      expect(item?.identity.roles).toEqual(['staff']);
      expect(await reviews.claimForExecution(id)).toBe(false);
      expect(await reviews.decide(id, { decision: 'denied', by: 'boss', note: 'no' })).toEqual({
        changed: true,
      });
      expect(await reviews.decide(id, { decision: 'approved', by: 'boss' })).toEqual({ changed: false });
      expect(await reviews.get(id)).toMatchObject({
        status: 'denied',
        decidedBy: 'boss',
        decisionNote: 'no',
      });
      expect(await reviews.claimForExecution(id)).toBe(false);

      const second = await reviews.enqueue(reviewRequest(tenant));
      await reviews.decide(second.id, { decision: 'approved', by: 'boss' });
      expect(await reviews.complete(second.id, { status: 'executed', resultSummary: 'ok' })).toEqual({
        changed: false,
      });
      expect(await reviews.claimForExecution(second.id)).toBe(true);
      expect(await reviews.complete(second.id, { status: 'executed', resultSummary: 'sent' })).toEqual({
        changed: true,
      });
      expect(await reviews.complete(second.id, { status: 'failed', resultSummary: 'again' })).toEqual({
        changed: false,
      });
      expect(await reviews.get(second.id)).toMatchObject({ status: 'executed', resultSummary: 'sent' });
      expect((await reviews.list({ status: 'executed' })).map((r) => r.id)).toEqual([second.id]);
    });

    it('expires pending reviews past their deadline and refuses late decisions', async () => {
      const tenant = `t-${randomUUID()}`;
      const reviews = store.forTenant(tenant).reviews;
      const now = Date.now();
      const late = await reviews.enqueue({
        ...reviewRequest(tenant),
        expiresAt: new Date(now - 1000).toISOString(),
      });
      const fresh = await reviews.enqueue({
        ...reviewRequest(tenant),
        expiresAt: new Date(now + 3_600_000).toISOString(),
      });
      const decided = await reviews.enqueue({
        ...reviewRequest(tenant),
        expiresAt: new Date(now - 1000).toISOString(),
      });
      expect(await reviews.decide(late.id, { decision: 'approved', by: 'boss' })).toEqual({ changed: false });
      await sql`update reviews set status = 'approved' where id = ${decided.id}`.execute(store.db);
      expect(await reviews.expire(new Date(now))).toBe(1);
      expect((await reviews.get(late.id))?.status).toBe('expired');
      expect((await reviews.get(fresh.id))?.status).toBe('pending');
      expect((await reviews.get(decided.id))?.status).toBe('approved');
      expect(await reviews.expire(new Date(now + 7_200_000))).toBe(1);
      expect((await reviews.get(fresh.id))?.status).toBe('expired');
      expect(await reviews.expire(new Date(now + 7_200_000))).toBe(0);
    });

    it('keeps every repository inside its tenant', async () => {
      const a = `a-${randomUUID()}`;
      const b = `b-${randomUUID()}`;
      const A = store.forTenant(a);
      const B = store.forTenant(b);
      const review = await A.reviews.enqueue(reviewRequest(a));
      const ticket = await A.tickets.create({ user: 'u', request: 'help', reason: 'degraded' });
      const task = await A.tasks.createTask({ user: 'u', line: 'deep', request: 'do it' });
      const raw = await A.tasks.putRawOutput({ taskId: task.id, stepNo: 1, content: 'raw' });

      expect(await B.reviews.get(review.id)).toBeUndefined();
      expect(await B.tickets.get(ticket.id)).toBeUndefined();
      expect(await B.tasks.getTask(task.id)).toBeUndefined();
      expect(await B.tasks.getRawOutput(raw.id)).toBeUndefined();
      expect(await B.reviews.list()).toEqual([]);
      expect(await B.tickets.list()).toEqual([]);
      expect(await B.tasks.listTasks()).toEqual([]);
      expect(await B.reviews.decide(review.id, { decision: 'approved', by: 'intruder' })).toEqual({
        changed: false,
      });
      expect(await B.tasks.updateTask(task.id, { status: 'hijacked' })).toEqual({ changed: false });
      expect(await B.tasks.claimLease(task.id, 'intruder', 60_000)).toBe(false);
      await expect(
        B.tasks.upsertStep({ taskId: task.id, stepNo: 1, status: 'done', goal: 'x' }),
      ).rejects.toThrow(/no task/);
      await expect(B.tasks.putRawOutput({ taskId: task.id, stepNo: 1, content: 'x' })).rejects.toThrow(
        /no task/,
      );
      expect(await B.tasks.getSteps(task.id)).toEqual([]);

      await expect(B.reviews.enqueue(reviewRequest(a))).rejects.toBeInstanceOf(TenantScopeError);
      await expect(
        B.tickets.create({ tenant: a, user: 'u', request: 'x', reason: 'y' }),
      ).rejects.toBeInstanceOf(TenantScopeError);
      await expect(B.reviews.list({ tenant: a })).rejects.toBeInstanceOf(TenantScopeError);
      expect(() => store.forTenant('*')).toThrow(TenantScopeError);
      expect(() => store.forTenant('')).toThrow(TenantScopeError);
      await expect(
        store.admin.tickets.create({ user: 'u', request: 'x', reason: 'y' }),
      ).rejects.toBeInstanceOf(TenantScopeError);

      expect((await A.reviews.get(review.id))?.tenant).toBe(a);
      expect((await store.admin.reviews.get(review.id))?.tenant).toBe(a);
      expect(store.reviews).toBe(store.admin.reviews);
      expect((await store.admin.tickets.list({ tenant: a })).map((x) => x.id)).toEqual([ticket.id]);
      expect(await store.admin.tickets.list({ tenant: b })).toEqual([]);
    });

    it('stores tasks, steps, raw outputs, idempotency keys and leases', async () => {
      const tenant = `t-${randomUUID()}`;
      const tasks = store.forTenant(tenant).tasks;
      const { id } = await tasks.createTask({
        user: 'u',
        line: 'deep',
        request: 'book a room',
        plan: { steps: 2 },
      });
      expect(await tasks.getTask(id)).toMatchObject({
        status: 'pending',
        currentStep: 0,
        plan: { steps: 2 },
      });
      expect(await tasks.updateTask(id, { status: 'running', currentStep: 1 })).toEqual({ changed: true });
      expect((await tasks.listTasks({ status: 'running' })).map((x) => x.id)).toEqual([id]);

      // A conditional update applies only while the task still has the status and version read.
      const seen = (await tasks.getTask(id))!;
      expect(await tasks.updateTask(id, { status: 'x' }, { status: 'pending' })).toEqual({ changed: false });
      expect(
        await tasks.updateTask(id, { currentStep: 1 }, { status: 'running', updatedAt: 'not-what-was-read' }),
      ).toEqual({ changed: false });
      await new Promise((r) => setTimeout(r, 2)); // a later write gets a later `updatedAt`
      expect(
        await tasks.updateTask(id, { currentStep: 1 }, { status: 'running', updatedAt: seen.updatedAt }),
      ).toEqual({ changed: true });
      // The version moved on: a second writer holding the same read loses.
      expect(
        await tasks.updateTask(id, { status: 'stale' }, { status: 'running', updatedAt: seen.updatedAt }),
      ).toEqual({ changed: false });
      expect((await tasks.getTask(id))?.status).toBe('running');

      await tasks.upsertStep({ taskId: id, stepNo: 2, status: 'pending', goal: 'send mail' });
      await tasks.upsertStep({
        taskId: id,
        stepNo: 1,
        status: 'running',
        goal: 'find room',
        tool: 'room_search',
      });
      const raw = await tasks.putRawOutput({ taskId: id, stepNo: 1, content: '{"rooms":[1,2]}' });
      await tasks.upsertStep({
        taskId: id,
        stepNo: 1,
        status: 'done',
        goal: 'find room',
        tool: 'room_search',
        params: { day: 'mon' },
        paramsValidated: true,
        idempotencyKey: `${id}:1`,
        outputSummary: '2 rooms',
        rawOutputRef: raw.id,
      });
      const steps = await tasks.getSteps(id);
      expect(steps.map((s) => [s.stepNo, s.status])).toEqual([
        [1, 'done'],
        [2, 'pending'],
      ]);
      expect(steps[0]).toMatchObject({ params: { day: 'mon' }, paramsValidated: true, rawOutputRef: raw.id });
      expect(await tasks.getRawOutput(raw.id)).toBe('{"rooms":[1,2]}');

      const key = `${id}:2:mail`;
      const firsts = await Promise.all(
        Array.from({ length: 10 }, () => tasks.recordIdempotencyKey(key, { taskId: id })),
      );
      expect(firsts.filter(Boolean)).toHaveLength(1);
      expect(await store.forTenant(`${tenant}-other`).tasks.recordIdempotencyKey(key)).toBe(true);
      expect(await store.admin.tasks.recordIdempotencyKey(`${key}:admin`, { taskId: id })).toBe(true);
      await expect(store.admin.tasks.recordIdempotencyKey('no-tenant')).rejects.toBeInstanceOf(
        TenantScopeError,
      );

      const t0 = new Date('2030-01-01T00:00:00.000Z');
      expect(await tasks.claimLease(id, 'worker-a', 1000, t0)).toBe(true);
      expect(await tasks.claimLease(id, 'worker-b', 1000, new Date(t0.getTime() + 500))).toBe(false);
      expect(await tasks.claimLease(id, 'worker-a', 1000, new Date(t0.getTime() + 500))).toBe(true);
      expect(await tasks.claimLease(id, 'worker-b', 1000, new Date(t0.getTime() + 2000))).toBe(true);
      expect(await tasks.releaseLease(id, 'worker-a')).toBe(false);
      expect(await tasks.releaseLease(id, 'worker-b')).toBe(true);
      expect(await tasks.getTask(id)).not.toHaveProperty('leaseOwner');
    });

    it('creates and lists tickets', async () => {
      const tenant = `t-${randomUUID()}`;
      const tickets = store.forTenant(tenant).tickets;
      const one = await tickets.create({
        user: 'u',
        sessionId: 's1',
        request: 'refund',
        reason: 'read-only line',
      });
      const two = await tickets.create({ user: 'v', request: 'report', reason: 'degraded' });
      expect(await tickets.get(one.id)).toMatchObject({ user: 'u', sessionId: 's1', status: 'open', tenant });
      expect(await tickets.get(two.id)).not.toHaveProperty('sessionId');
      expect((await tickets.list()).map((x) => x.id).sort()).toEqual([one.id, two.id].sort());
    });

    it('lists a user’s own tasks and reviews before the limit applies', async () => {
      const tenant = `t-${randomUUID()}`;
      const repos = store.forTenant(tenant);
      await repos.tasks.createTask({ user: 'alice', line: 'deep', request: 'mine' });
      for (let i = 0; i < 3; i++)
        await repos.tasks.createTask({ user: 'bob', line: 'deep', request: `b${i}` });
      expect((await repos.tasks.listTasks({ user: 'alice', limit: 1 })).map((t) => t.request)).toEqual([
        'mine',
      ]);
      expect(await repos.tasks.listTasks({ user: 'nobody' })).toEqual([]);
      const review = (user: string): ReviewRequest => ({
        tenant,
        user,
        sessionId: 's',
        agent: 'main',
        domain: 'deep',
        tool: 't',
        args: {},
        identity: { tenant, user, roles: [], dataLevel: 'L1', attributes: {} },
        reason: 'r',
        decisionPath: [],
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
      });
      await repos.reviews.enqueue(review('alice'));
      await repos.reviews.enqueue(review('bob'));
      await repos.reviews.enqueue(review('bob'));
      const own = await repos.reviews.list({ user: 'alice', limit: 1 });
      expect(own.map((r) => r.user)).toEqual(['alice']);
    });

    it('admission slots: caps hold when several processes claim at once; lapsed slots free up', async () => {
      // Several openers stand for several processes of one deployment.
      const others = await Promise.all([open(), open()]);
      const all = [store, ...others];
      try {
        await store.db.deleteFrom('deep_admission_slots').execute();
        const tenant = `t-${randomUUID()}`;
        const limits = { concurrency: 1000, perTenant: 3, perUser: 2 };
        const claims = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            all[i % all.length]!.admission.tryAcquire(
              { id: `task-${i}`, tenant, user: `u${i % 3}`, owner: `p${i % all.length}` },
              limits,
              60_000,
            ),
          ),
        );
        expect(claims.filter((c) => c === 'acquired')).toHaveLength(3);
        expect(claims.filter((c) => c === 'tenant-full').length).toBeGreaterThan(0);
        const held = await store.db.selectFrom('deep_admission_slots').selectAll().execute();
        const perUser = new Map<string, number>();
        for (const h of held) perUser.set(h.user_id, (perUser.get(h.user_id) ?? 0) + 1);
        expect(Math.max(...perUser.values())).toBeLessThanOrEqual(2);

        // The total cap across tenants.
        await store.db.deleteFrom('deep_admission_slots').execute();
        const total = { concurrency: 2, perTenant: 2, perUser: 2 };
        const mixed = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            all[i % all.length]!.admission.tryAcquire(
              { id: `mix-${i}`, tenant: `${tenant}-${i % 4}`, user: 'u', owner: `p${i % all.length}` },
              total,
              60_000,
            ),
          ),
        );
        expect(mixed.filter((c) => c === 'acquired')).toHaveLength(2);
        expect(mixed.filter((c) => c === 'full')).toHaveLength(10);

        // The same task claiming again keeps its slot; another owner sees it; release frees it.
        const [first] = await store.db.selectFrom('deep_admission_slots').selectAll().execute();
        expect(
          await store.admission.tryAcquire(
            { id: first!.id, tenant: first!.tenant, user: first!.user_id, owner: first!.owner },
            total,
            60_000,
          ),
        ).toBe('acquired');
        expect((await store.admission.heldByOthers('nobody')).length).toBe(2);
        await store.admission.release(first!.id, first!.owner);
        expect((await store.admission.heldByOthers('nobody')).length).toBe(1);

        // A process that stops renewing: its slot lapses and the next claim takes its place.
        await store.db.deleteFrom('deep_admission_slots').execute();
        const one = { concurrency: 1, perTenant: 1, perUser: 1 };
        const t0 = new Date();
        expect(
          await store.admission.tryAcquire({ id: 'a', tenant, user: 'u', owner: 'dead' }, one, 1_000, t0),
        ).toBe('acquired');
        expect(
          await store.admission.tryAcquire({ id: 'b', tenant, user: 'u', owner: 'live' }, one, 1_000, t0),
        ).toBe('full');
        await store.admission.renew('dead', 1_000, new Date(t0.getTime() + 500));
        expect(
          await store.admission.tryAcquire(
            { id: 'b', tenant, user: 'u', owner: 'live' },
            one,
            1_000,
            new Date(t0.getTime() + 1_200),
          ),
        ).toBe('full');
        expect(
          await store.admission.tryAcquire(
            { id: 'b', tenant, user: 'u', owner: 'live' },
            one,
            1_000,
            new Date(t0.getTime() + 1_600),
          ),
        ).toBe('acquired');
        await store.db.deleteFrom('deep_admission_slots').execute();
      } finally {
        await Promise.all(others.map((o) => o.close()));
      }
    });
  });
}

/**
 * The claim worker bundled to plain JavaScript, so five processes start in
 * milliseconds instead of each compiling TypeScript. It lives under node_modules/.cache so that
 * its package imports resolve to the project's node_modules.
 */
function bundledClaimWorker(): Promise<string> {
  return (async () => {
    const { build } = await import('esbuild');
    const outfile = join(
      import.meta.dirname,
      '../../node_modules/.cache/twinline-tests',
      `claim-worker-${process.pid}-${randomUUID()}.mjs`,
    );
    await build({
      entryPoints: [join(import.meta.dirname, 'fixtures', 'claim-worker.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      outfile,
      logLevel: 'silent',
    });
    return outfile;
  })();
}

async function countAudit(store: Store, tenant: string): Promise<number> {
  const row = await store.db
    .selectFrom('audit_records')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('tenant', '=', tenant)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Waits for a condition the code under test exposes no event for (write failures), bounded. */
async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 5));
  }
}

function auditRecord(tenant: string, over: Partial<AuditRecord> = {}): AuditRecord {
  return {
    id: randomUUID(),
    time: new Date().toISOString(),
    tenant,
    user: 'u',
    sessionId: 's',
    agent: 'main',
    domain: 'quick',
    tool: 'calendar_read',
    callId: randomUUID(),
    argsHash: 'a'.repeat(64),
    status: 'executed',
    decisionPath: [decide('allow', 'policy', 'rbac.ok', 'role may call')],
    resultSummary: 'ok',
    durationMs: 1.5,
    ...over,
  };
}

const identity = (tenant: string): Identity => ({
  tenant,
  user: 'u',
  roles: ['staff'],
  dataLevel: 'L2',
  attributes: { department: 'sales' },
});

function reviewRequest(tenant: string): ReviewRequest {
  return {
    tenant,
    user: 'u',
    sessionId: 's',
    agent: 'main',
    domain: 'quick',
    tool: 'mail_send',
    args: { to: 'x@example.com' },
    identity: identity(tenant),
    reason: 'high risk',
    decisionPath: [decide('review', 'policy', 'risk.high', 'needs approval')],
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  };
}
