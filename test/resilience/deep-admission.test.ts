import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type AdmissionLimits,
  AdmissionRefusedError,
  DeepAdmission,
  estimateStart,
  FairQueue,
  type QueuedJob,
} from '../../src/resilience/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { createTestDatabase } from '../store/postgres-test-database.js';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { open, opened };
}

/** Lets the admission's promise chains (completion → release → next start) run. */
const settle = () => new Promise((r) => setImmediate(r));

describe('DeepAdmission: caps and the fair order', () => {
  it('acme queues ten slow tasks; globex’s first starts at once (position 0), acme waits behind its own', async () => {
    const q = new DeepAdmission({ limits: { concurrency: 4, perTenant: 3, perUser: 2 } });
    const gates: ReturnType<typeof gate>[] = [];
    const acme = Array.from({ length: 10 }, (_, i) => {
      const g = gate();
      gates.push(g);
      return q.submit({ tenant: 'acme', user: ['alice', 'bob', 'mallory'][i % 3]! }, () => g.opened);
    });
    await settle();
    expect(q.running).toBe(3); // perTenant: one slot stays free for anyone else
    const globex = q.submit({ tenant: 'globex', user: 'gina' }, async () => 'g');
    expect(globex.position).toBe(0);
    expect(globex.estimatedStartMs).toBe(0);
    expect(await globex.done).toBe('g');
    expect(acme.slice(0, 3).map((t) => t.position)).toEqual([0, 0, 0]);
    // The rest wait; each was told its place in the fair order as it stood when it arrived (a
    // colleague with nothing waiting goes first within the tenant, so places can repeat).
    expect(acme.slice(3).every((t) => t.position > 0 && t.estimatedStartMs > 0)).toBe(true);
    expect(acme[9]!.position).toBeGreaterThan(acme[3]!.position);
    for (const g of gates) g.open();
    await Promise.all(acme.map((t) => t.done));
    await q.onIdle();
  });

  it('a user never runs more than perUser at once, even with the tenant’s slots free', async () => {
    const q = new DeepAdmission({ limits: { concurrency: 4, perTenant: 3, perUser: 1 } });
    const gates = [gate(), gate(), gate()];
    const t = gates.map((g) => q.submit({ tenant: 'acme', user: 'alice' }, () => g.opened));
    await settle();
    expect(q.running).toBe(1);
    expect(q.waiting).toBe(2);
    gates[0]!.open();
    await t[0]!.done;
    await settle();
    expect(q.running).toBe(1);
    for (const g of gates) g.open();
    await Promise.all(t.map((x) => x.done));
  });

  it('round-robin across tenants, then across each tenant’s users', async () => {
    const q = new DeepAdmission({ limits: { concurrency: 1, perTenant: 1, perUser: 1 } });
    const order: string[] = [];
    const hold = gate();
    const first = q.submit({ tenant: 'a', user: 'u1' }, async () => {
      order.push('a/u1#1');
      await hold.opened;
    });
    const rest = [
      ['a', 'u1', '#2'],
      ['a', 'u1', '#3'],
      ['a', 'u2', '#1'],
      ['b', 'v1', '#1'],
      ['b', 'v1', '#2'],
      ['c', 'w1', '#1'],
    ].map(([tenant, user, n]) =>
      q.submit({ tenant: tenant!, user: user! }, async () => {
        order.push(`${tenant}/${user}${n}`);
      }),
    );
    hold.open();
    await Promise.all([first.done, ...rest.map((r) => r.done)]);
    // After a: b and c (tenants that waited) before a again; within a, u2 before u1's second.
    expect(order).toEqual(['a/u1#1', 'c/w1#1', 'b/v1#1', 'a/u2#1', 'b/v1#2', 'a/u1#2', 'a/u1#3']);
  });

  it('a failing job rejects only its own ticket', async () => {
    const q = new DeepAdmission({ limits: { concurrency: 1, perTenant: 1, perUser: 1 } });
    const bad = q.submit({ tenant: 'a', user: 'u' }, () => Promise.reject(new Error('boom')));
    const good = q.submit({ tenant: 'a', user: 'u' }, () => Promise.resolve('fine'));
    await expect(bad.done).rejects.toThrow('boom');
    await expect(good.done).resolves.toBe('fine');
  });

  it('refuses a tenant’s job beyond its queue bound, and only that tenant’s', async () => {
    const q = new DeepAdmission({
      limits: { concurrency: 2, perTenant: 1, perUser: 1 },
      maxQueuedPerTenant: 2,
    });
    const g = gate();
    const t = [0, 1, 2].map(() => q.submit({ tenant: 'acme', user: 'alice' }, () => g.opened));
    await settle();
    expect(q.hasRoom('acme')).toBe(false);
    expect(() => q.submit({ tenant: 'acme', user: 'bob' }, async () => 1)).toThrow(AdmissionRefusedError);
    expect(await q.submit({ tenant: 'globex', user: 'gina' }, async () => 2).done).toBe(2);
    g.open();
    await Promise.all(t.map((x) => x.done));
  });

  it('refuses caps that cannot all hold', () => {
    expect(() => new DeepAdmission({ limits: { concurrency: 2, perTenant: 3, perUser: 1 } })).toThrow(
      /perTenant/,
    );
    expect(() => new DeepAdmission({ limits: { concurrency: 2, perTenant: 2, perUser: 3 } })).toThrow(
      /perUser/,
    );
    expect(() => new DeepAdmission({ limits: { concurrency: 0, perTenant: 1, perUser: 1 } })).toThrow(
      /positive/,
    );
  });
});

describe('estimateStart: position and wait per tenant', () => {
  const job = (tenant: string, user: string, seq: number): QueuedJob => ({ tenant, user, seq });
  const limits: AdmissionLimits = { concurrency: 3, perTenant: 3, perUser: 3 };

  it('behind a tenant’s slow tasks, another tenant waits for the first to end, not for all of them', () => {
    const q = new FairQueue<QueuedJob>();
    for (let i = 0; i < 10; i++) q.push(job('acme', 'alice', i));
    const g = job('globex', 'gina', 100);
    q.push(g);
    const running = [0, 1, 2].map((i) => ({
      tenant: 'acme',
      user: 'alice',
      remainingMs: 100_000 + i * 10_000,
    }));
    const durations = (t: string) => (t === 'acme' ? 120_000 : 2_000);
    const globex = estimateStart(q, running, limits, g, durations);
    // The globex task is next in the fair order: one slot must free up first.
    expect(globex).toEqual({ position: 1, startMs: 100_000 });
    // acme's last queued task waits behind its nine colleagues and globex's.
    const last = estimateStart(q, running, limits, { tenant: 'acme', user: 'alice', seq: 9 }, durations);
    expect(last.position).toBe(11);
    expect(last.startMs).toBeGreaterThan(300_000);
  });

  it('starts at once when a slot is free', () => {
    const q = new FairQueue<QueuedJob>();
    const j = job('globex', 'gina', 1);
    q.push(j);
    expect(estimateStart(q, [], limits, j, () => 60_000)).toEqual({ position: 0, startMs: 0 });
  });
});

describe('property: admission never runs past a cap, never idles while a job could start, runs every job', () => {
  it('holds for random submissions and completion orders', async () => {
    const arbLimits = fc
      .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }))
      .map(([c, t, u]) => {
        const concurrency = c;
        const perTenant = Math.min(t, concurrency);
        return { concurrency, perTenant, perUser: Math.min(u, perTenant) };
      });
    const arbJobs = fc.array(
      fc.record({ tenant: fc.constantFrom('a', 'b', 'c'), user: fc.constantFrom('u1', 'u2', 'u3') }),
      { minLength: 1, maxLength: 25 },
    );
    await fc.assert(
      fc.asyncProperty(
        arbLimits,
        arbJobs,
        fc.array(fc.nat(), { maxLength: 60 }),
        async (limits, jobs, picks) => {
          const q = new DeepAdmission({ limits });
          const running = new Map<number, { tenant: string; user: string; open: () => void }>();
          const finished = new Set<number>();
          let violation: string | undefined;
          const check = () => {
            const total = running.size;
            const byTenant = new Map<string, number>();
            const byUser = new Map<string, number>();
            for (const r of running.values()) {
              byTenant.set(r.tenant, (byTenant.get(r.tenant) ?? 0) + 1);
              byUser.set(`${r.tenant}/${r.user}`, (byUser.get(`${r.tenant}/${r.user}`) ?? 0) + 1);
            }
            if (total > limits.concurrency) violation = `total ${total}`;
            for (const [t, n] of byTenant) if (n > limits.perTenant) violation = `tenant ${t} ${n}`;
            for (const [u, n] of byUser) if (n > limits.perUser) violation = `user ${u} ${n}`;
          };
          const tickets = jobs.map((j, i) =>
            q.submit(j, async () => {
              const g = gate();
              running.set(i, { ...j, open: g.open });
              check();
              await g.opened;
              running.delete(i);
              finished.add(i);
            }),
          );
          let p = 0;
          while (finished.size < jobs.length) {
            await settle();
            // Work-conserving: every waiting job is blocked by a full cap.
            const waitingJobs = jobs
              .map((j, i) => ({ ...j, i }))
              .filter((j) => !finished.has(j.i) && !running.has(j.i));
            for (const w of waitingJobs) {
              const byTenant = [...running.values()].filter((r) => r.tenant === w.tenant).length;
              const byUser = [...running.values()].filter(
                (r) => r.tenant === w.tenant && r.user === w.user,
              ).length;
              const blocked =
                running.size >= limits.concurrency ||
                byTenant >= limits.perTenant ||
                byUser >= limits.perUser;
              if (!blocked) violation ??= `job ${w.i} could start but waits`;
            }
            const ids = [...running.keys()];
            if (ids.length === 0) {
              violation ??= 'nothing runs but jobs wait';
              break;
            }
            running.get(ids[(picks[p++ % Math.max(1, picks.length)] ?? 0) % ids.length]!)!.open();
            await settle();
          }
          await Promise.all(tickets.map((t) => t.done));
          expect(violation).toBeUndefined();
          expect(finished.size).toBe(jobs.length);
        },
      ),
      { numRuns: 150 },
    );
  });
});

const database = await createTestDatabase();

describe('shared slots on PostgreSQL: the caps hold across processes', () => {
  const stores: Store[] = [];
  afterAll(async () => {
    for (const s of stores) await s.close();
    await database?.drop();
  });

  it('two processes’ admissions never run more of one tenant than perTenant, and hand slots over', async (ctx) => {
    if (!database) return ctx.skip();
    const a = await openStore({ url: database.url });
    const b = await openStore({ url: database.url });
    stores.push(a, b);
    const limits = { concurrency: 3, perTenant: 2, perUser: 2 };
    const here = new DeepAdmission({ limits, slots: a.admission, retryMs: 20 });
    const there = new DeepAdmission({ limits, slots: b.admission, retryMs: 20 });
    let acmeRunning = 0;
    let peak = 0;
    const gates: ReturnType<typeof gate>[] = [];
    const job = () => {
      const g = gate();
      gates.push(g);
      return async () => {
        acmeRunning++;
        peak = Math.max(peak, acmeRunning);
        await g.opened;
        acmeRunning--;
      };
    };
    const tickets = [
      ...[0, 1, 2].map((i) => here.submit({ tenant: 'acme', user: `u${i}`, taskId: `h${i}` }, job())),
      ...[0, 1, 2].map((i) => there.submit({ tenant: 'acme', user: `u${i}`, taskId: `t${i}` }, job())),
    ];
    for (let i = 0; i < 100 && acmeRunning < 2; i++) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    expect(acmeRunning).toBe(2);
    // globex still finds the third slot, in either process.
    expect(await there.submit({ tenant: 'globex', user: 'gina', taskId: 'g' }, async () => 'ok').done).toBe(
      'ok',
    );
    // As acme's tasks end, the others (in both processes) take their slots, never more than two at once.
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 100 && gates.length <= round; i++) await new Promise((r) => setTimeout(r, 20));
      gates[round]?.open();
    }
    for (let i = 0; i < 200 && gates.length < 6; i++) {
      await new Promise((r) => setTimeout(r, 20));
      for (const g of gates) g.open();
    }
    for (const g of gates) g.open();
    await Promise.all(tickets.map((t) => t.done));
    expect(peak).toBe(2);
    here.close();
    there.close();
    // Each slot is released as its task ends (a moment after the ticket settles).
    let left = -1;
    for (let i = 0; i < 100 && left !== 0; i++) {
      left = (await a.db.selectFrom('deep_admission_slots').selectAll().execute()).length;
      if (left) await new Promise((r) => setTimeout(r, 20));
    }
    expect(left).toBe(0);
  });
});

describe('cancelling a waiting task', () => {
  it('takes it out of the queue: it never runs, its ticket settles, the next one starts', async () => {
    const q = new DeepAdmission({ limits: { concurrency: 1, perTenant: 1, perUser: 1 } });
    const g = gate();
    const ran: string[] = [];
    const first = q.submit({ tenant: 'a', user: 'u', taskId: 't1' }, async () => {
      ran.push('t1');
      await g.opened;
    });
    const second = q.submit({ tenant: 'a', user: 'u', taskId: 't2' }, async () => {
      ran.push('t2');
    });
    const third = q.submit({ tenant: 'b', user: 'v', taskId: 't3' }, async () => {
      ran.push('t3');
    });
    expect(q.cancel('t2')).toBe(true);
    expect(q.cancel('t2')).toBe(false);
    expect(q.cancel('t1')).toBe(false); // already running
    await expect(second.done).resolves.toBeUndefined();
    g.open();
    await Promise.all([first.done, third.done]);
    expect(ran).toEqual(['t1', 't3']);
    await q.onIdle();
  });
});
