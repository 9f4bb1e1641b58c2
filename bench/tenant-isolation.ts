/**
 * Tenant isolation under load: tenant B's quick-line latency on one real `twinline serve`
 * (loopback, SQLite, audit on), alone and while tenant A abuses the same server — A's renewal
 * drafts fail on their arguments (its own breaker opens and refuses them) and A keeps the deep
 * line busy with slow tasks (each `doc_search` of A's takes `BENCH_TI_SLOW_MS`). Reports B's
 * p50/p95/p99 in both phases, B's breaker state, and whether B's deep task was admitted at once.
 * Server and load generator share this process (and the machine's two cores).
 *
 * `BENCH_TI_REQUESTS` (default 400) quick requests per phase for B, `BENCH_TI_CONNECTIONS`
 * (default 8) at a time, split over alice and bob; A sends the same number meanwhile, and
 * `BENCH_TI_DEEP` (default 12) deep tasks. Prints one JSON object.
 */
import { loadavg } from 'node:os';
import {
  type Body,
  DEEP_QUERY,
  get,
  key,
  percentile,
  post,
  quickBurst,
  startTwoTenantServer,
} from '../test/support/two-tenants.js';

const REQUESTS = Number(process.env.BENCH_TI_REQUESTS || 400);
const CONNECTIONS = Number(process.env.BENCH_TI_CONNECTIONS || 8);
const DEEP = Number(process.env.BENCH_TI_DEEP || 12);
const SLOW_MS = Number(process.env.BENCH_TI_SLOW_MS || 1500);
const A = [key('globex', 'hank'), key('globex', 'gina')];
const B = [key('acme', 'alice'), key('acme', 'bob')];

const r1 = (x: number) => Math.round(x * 10) / 10;
const figures = (latencies: number[], results: Body[], seconds: number) => ({
  requests: latencies.length,
  completed: results.filter((r) => r.outcome === 'completed').length,
  denied: results.filter((r) => (r.denied?.length ?? 0) > 0).length,
  req_per_s: Math.round(latencies.length / seconds),
  p50_ms: r1(percentile(latencies, 50)),
  p95_ms: r1(percentile(latencies, 95)),
  p99_ms: r1(percentile(latencies, 99)),
});

const t = await startTwoTenantServer({ slowMs: SLOW_MS });
try {
  // Warm-up (JIT, caches, SQLite pages), not measured.
  await quickBurst(t.url, B, 100, CONNECTIONS);
  let start = performance.now();
  const alone = await quickBurst(t.url, B, REQUESTS, CONNECTIONS);
  const aloneS = (performance.now() - start) / 1000;

  // Control: the same doubled load, but from B's own users — what sharing the CPU alone costs.
  start = performance.now();
  const [, control] = await Promise.all([
    quickBurst(t.url, B, REQUESTS, CONNECTIONS),
    quickBurst(t.url, B, REQUESTS, CONNECTIONS),
  ]);
  const controlS = (performance.now() - start) / 1000;

  const queued = await Promise.all(
    Array.from({ length: DEEP }, (_, i) => post(t.url, A[i % 2]!, '/v1/requests', { query: DEEP_QUERY })),
  );
  // B's deep task, submitted while A's backlog waits.
  const waitingForA = t.server.platform.deepQueue.waiting;
  const bDeep = await post(t.url, B[0]!, '/v1/requests', { query: DEEP_QUERY });
  start = performance.now();
  const [abuse, during] = await Promise.all([
    quickBurst(t.url, [A[0]!], REQUESTS, CONNECTIONS),
    quickBurst(t.url, B, REQUESTS, CONNECTIONS),
  ]);
  const duringS = (performance.now() - start) / 1000;
  const bTask = (await get(t.url, B[0]!, `/v1/tasks/${bDeep.body.taskId}`)).task as Body;
  const bRows = (await get(t.url, B[0]!, '/v1/breakers')).breakers as Body[];
  const aRows = (await get(t.url, A[0]!, '/v1/breakers')).breakers as Body[];
  const draft = (rows: Body[]) => rows.find((r) => r.tool === 'renewal_message_draft');
  const result = {
    load: {
      connections: CONNECTIONS,
      requests_per_phase: REQUESTS,
      a_deep_tasks: DEEP,
      a_slow_step_ms: SLOW_MS,
      loadavg_1m: r1(loadavg()[0]!),
    },
    b_alone: figures(alone.latencies, alone.results, aloneS),
    b_beside_equal_load_of_its_own: figures(control.latencies, control.results, controlS),
    b_during_a_abuse: figures(during.latencies, during.results, duringS),
    a_during_abuse: {
      ...figures(abuse.latencies, abuse.results, duringS),
      deep_positions: queued.map((q) => q.body.position),
    },
    b_breaker: draft(bRows),
    a_breaker: draft(aRows),
    b_deep_task: {
      status: bDeep.status,
      position: bDeep.body.position,
      estimatedStartMs: bDeep.body.estimatedStartMs,
      a_tasks_waiting_then: waitingForA,
      final_status: bTask.status,
    },
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  // A's backlog is cancelled so the server can stop without working through it.
  for (const [i, q] of queued.entries())
    await post(t.url, A[i % 2]!, `/v1/tasks/${q.body.taskId}/cancel`, {});
} finally {
  await t.close();
}
