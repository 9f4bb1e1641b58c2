import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Body,
  DEEP_QUERY,
  get,
  key,
  percentile,
  post,
  quickBurst,
  startTwoTenantServer,
  type TwoTenantServer,
} from '../support/two-tenants.js';

/**
 * Two tenants on one real `twinline serve` on loopback. globex (A) sends renewal drafts that fail
 * on their arguments until its own breaker opens, and queues nine slow deep tasks; acme (B) goes
 * on working meanwhile. B's answers, breakers and deep admission must not change. Bounded in
 * count (60 + 60 + 60 quick requests, 10 deep tasks; A's waiting tasks cancelled) and time; the bounds on latency are generous
 * on purpose — the precise figures are `npm run bench -- tenant-isolation`.
 */
const A = [key('globex', 'hank'), key('globex', 'gina')];
const B = [key('acme', 'alice'), key('acme', 'bob')];
const N = 60;
let t: TwoTenantServer;

beforeAll(async () => {
  t = await startTwoTenantServer({ slowMs: 3_000 });
});
afterAll(async () => {
  await t?.close();
});

const row = (rows: Body[], tool: string) => rows.find((r) => r.tool === tool);

describe('tenant isolation under load (two tenants, one serve)', () => {
  it('A’s failures and slow tasks leave B’s answers, breakers and deep admission unchanged', async () => {
    // B alone: the baseline.
    const before = await quickBurst(t.url, B, N, 4);
    expect(
      before.results.filter((r) => r.outcome === 'completed' && r.executed.includes('renewal_message_draft')),
    ).toHaveLength(N);
    const bBreakersBefore = (await get(t.url, B[0]!, '/v1/breakers')).breakers as Body[];
    expect(row(bBreakersBefore, 'renewal_message_draft')).toMatchObject({ state: 'closed', failures: 0 });

    // A: nine slow deep tasks queued — three run (its cap), six wait.
    const queued = await Promise.all(
      Array.from({ length: 9 }, (_, i) => post(t.url, A[i % 2]!, '/v1/requests', { query: DEEP_QUERY })),
    );
    expect(queued.every((q) => q.status === 202)).toBe(true);
    expect(Math.max(...queued.map((q) => q.body.position as number))).toBeGreaterThan(0);
    // B's deep task starts at once (position 0, no wait) although A has tasks waiting, and finishes.
    expect(t.server.platform.deepQueue.waiting).toBeGreaterThan(0);
    const bDeep = await post(t.url, B[0]!, '/v1/requests', { query: DEEP_QUERY });
    expect(bDeep.status).toBe(202);
    expect(bDeep.body).toMatchObject({ position: 0, estimatedStartMs: 0 });
    const bTask = bDeep.body.taskId as string;
    let status = '';
    for (let i = 0; i < 400 && status !== 'completed'; i++) {
      status = (await get(t.url, B[0]!, `/v1/tasks/${bTask}`)).task.status;
      if (status !== 'completed') await new Promise((r) => setTimeout(r, 25));
    }
    expect(status).toBe('completed');

    // A's failing drafts, while B sends the same load again.
    const [abuse, during] = await Promise.all([quickBurst(t.url, [A[0]!], N, 4), quickBurst(t.url, B, N, 4)]);

    // A's drafts failed on their own arguments, then its own breaker refused them.
    const aDenied = abuse.results.filter((r) => r.denied?.includes('renewal_message_draft')).length;
    expect(aDenied).toBeGreaterThan(0);
    const aRows = (await get(t.url, A[0]!, '/v1/breakers')).breakers as Body[];
    expect(row(aRows, 'renewal_message_draft')).toMatchObject({ tenantState: 'open', toolState: 'closed' });

    // B: every answer as before, no refusal, its breaker untouched, the tool-wide one closed.
    expect(
      during.results.filter((r) => r.outcome === 'completed' && r.executed.includes('renewal_message_draft')),
    ).toHaveLength(N);
    expect(during.results.filter((r) => r.denied.length > 0)).toHaveLength(0);
    const bRows = (await get(t.url, B[0]!, '/v1/breakers')).breakers as Body[];
    expect(row(bRows, 'renewal_message_draft')).toMatchObject({
      state: 'closed',
      tenantState: 'closed',
      toolState: 'closed',
      failures: 0,
    });

    // A's tasks still waiting are cancelled: they leave the queue (the running three finish).
    for (const [i, q] of queued.entries())
      await post(t.url, A[i % 2]!, `/v1/tasks/${q.body.taskId}/cancel`, {});

    // Latency: generous bounds only (a loaded CI machine must pass); the bench has the figures.
    const p95Before = percentile(before.latencies, 95);
    const p95During = percentile(during.latencies, 95);
    expect(p95During).toBeLessThan(Math.max(5_000, 20 * p95Before));
  }, 120_000);
});
