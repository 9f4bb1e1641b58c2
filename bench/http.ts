/**
 * HTTP load test of `twinline serve` on loopback with autocannon or wrk, bounded in time: requests/s and
 * latency percentiles for cached quick-line requests through the full pipeline (authentication,
 * routing, input gate, quick line with a scripted model calling a read-only tool, every gateway
 * stage, the read cache, the output gate) with audit on.
 *
 *   (a) one `twinline serve` process on SQLite;
 *   (a') the same with tracing on (`OTEL_TRACES_EXPORTER=otlp` to an OTLP/HTTP sink on loopback
 *       that only counts what it receives), to show what a traced request costs beside (a);
 *   (b) two processes on one PostgreSQL and one Redis (a fresh database, dropped afterwards;
 *       skipped with a message when the services are not reachable).
 *
 * Identities are spread over several users and the per-user QPS limit is raised
 * (TWINLINE_QUICK_QPS), so what is measured is the pipeline, not the limiter refusing.
 * `BENCH_HTTP_SECONDS` (default 10) bounds each scenario; `BENCH_HTTP_CONNECTIONS` (default 16);
 * `BENCH_HTTP_RATE` offers a fixed load (requests/s) instead of as many as the server answers.
 * `BENCH_HTTP_CLIENT` picks the load generator: `autocannon` (default; an npm package, in this
 * process) or `wrk` (Debian's C program, when installed). The client shares the machine's cores
 * with the server, so its own CPU per request is reported too.
 * Needs `npm run build` first (it spawns `bin/twinline.js`). Prints one JSON object.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { officeTempConfig } from '../test/support/office-temp.js';
import { postgresReachable, redisReachable } from '../test/support/services.js';
import { clientCpuClock, type LoadClientName, runAutocannon, runWrk, wrkAvailable } from './_load-clients.js';

const SECONDS = Number(process.env.BENCH_HTTP_SECONDS || 10);
const CONNECTIONS = Number(process.env.BENCH_HTTP_CONNECTIONS || 16);
/** A fixed offered load (requests/s over all connections) instead of as fast as possible. */
const RATE = Number(process.env.BENCH_HTTP_RATE || 0);
const PG_ADMIN = process.env.BENCH_PG_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';
const USERS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank'];
const QUERY = '查一下这周的日程安排';

const CLIENT = (process.env.BENCH_HTTP_CLIENT || 'autocannon') as LoadClientName;
if (CLIENT !== 'autocannon' && CLIENT !== 'wrk') {
  process.stderr.write(`bench/http: BENCH_HTTP_CLIENT must be autocannon or wrk, not ${CLIENT}\n`);
  process.exit(1);
}
if (CLIENT === 'wrk' && !wrkAvailable()) {
  process.stderr.write('bench/http: BENCH_HTTP_CLIENT=wrk but wrk is not installed (apt-get install wrk)\n');
  process.exit(1);
}
if (CLIENT === 'wrk' && RATE > 0) {
  process.stderr.write('bench/http: wrk cannot offer a fixed rate (BENCH_HTTP_RATE); use autocannon\n');
  process.exit(1);
}

if (!existsSync('dist/cli/main.js')) {
  process.stderr.write('bench/http: dist/ is missing — run `npm run build` first\n');
  process.exit(1);
}

const office = officeTempConfig();
const script = join(office.dir, 'quick.json');
writeFileSync(
  script,
  JSON.stringify([
    { tool_calls: [{ name: 'calendar_list', arguments: { from: '2026-11-23', to: '2026-11-29' } }] },
    { text: '本周有 3 个会议。' },
  ]),
);

const children: ChildProcess[] = [];

function serve(env: Record<string, string>): Promise<string> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_HTTP_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      'bin/twinline.js',
      'serve',
      '--port',
      '0',
      '--config',
      office.configFile,
      '--model',
      `scripted:${script}`,
    ],
    {
      env: { ...process.env, TWINLINE_QUICK_QPS: '1000000', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /API:\s+(http:\/\/\S+)\/v1/.exec(line);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve exited early (${code})`)));
  });
}

async function stopAll(): Promise<void> {
  await Promise.all(
    children.splice(0).map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null) return resolve();
          c.once('exit', () => resolve());
          c.kill('SIGTERM');
        }),
    ),
  );
}

/** One checked request, so a misconfigured run fails loudly instead of measuring errors. */
async function probe(url: string): Promise<void> {
  const res = await fetch(`${url}/v1/requests`, {
    method: 'POST',
    headers: { authorization: 'Bearer tw-acme-alice-demo', 'content-type': 'application/json' },
    body: JSON.stringify({ query: QUERY }),
  });
  const body = (await res.json()) as { outcome?: string; route?: { target?: string } };
  if (res.status !== 200 || body.outcome !== 'completed' || body.route?.target !== 'quick') {
    throw new Error(`probe failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  }
}

/** CPU time (user + system, ms) a child process has used so far, from /proc (Linux only). */
function cpuMs(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 10 ms
  } catch {
    return undefined;
  }
}

async function load(urls: readonly string[], seconds: number) {
  const pids = children.map((c) => c.pid);
  const cpuBefore = pids.map(cpuMs);
  const clientCpu = clientCpuClock(CLIENT);
  const clientBefore = clientCpu();
  const run = CLIENT === 'wrk' ? runWrk : runAutocannon;
  // Each process gets its share of the connections; connections (or requests) take users in turn.
  const results = await Promise.all(
    urls.map((url, p) =>
      run({
        url: `${url}/v1/requests`,
        connections: Math.max(1, Math.round(CONNECTIONS / urls.length)),
        rate: RATE > 0 ? Math.max(1, Math.round(RATE / urls.length)) : 0,
        seconds,
        body: JSON.stringify({ query: QUERY }),
        authorizations: USERS.map(
          (_, i) => `Bearer tw-acme-${USERS[(i * urls.length + p) % USERS.length]}-demo`,
        ),
      }),
    ),
  );
  const clientCpuMs = clientCpu() - clientBefore;
  const total = results.reduce((s, r) => s + r.requests, 0);
  const cpuUsed = pids.map((p, i) => (cpuMs(p) ?? Number.NaN) - (cpuBefore[i] ?? Number.NaN));
  const serverCpuMs = cpuUsed.reduce((a, b) => a + b, 0);
  return {
    client: CLIENT,
    seconds,
    connections: CONNECTIONS,
    processes: urls.length,
    requestsPerSecond: Math.round(total / seconds),
    requests: total,
    answered: results.reduce((s, r) => s + r.requests - r.non2xx, 0),
    // Percentiles are per client instance; with two processes report the worse of the two.
    latencyMs: {
      p50: Math.max(...results.map((r) => r.latency.p50)),
      p90: Math.max(...results.map((r) => r.latency.p90)),
      p99: Math.max(...results.map((r) => r.latency.p99)),
      max: Math.max(...results.map((r) => r.latency.max)),
    },
    non2xx: results.reduce((s, r) => s + r.non2xx, 0),
    errors: results.reduce((s, r) => s + r.errors, 0),
    // Server CPU per request: what one request costs, independent of other load on the machine.
    serverCpuMsPerRequest: Number.isFinite(serverCpuMs) ? Number((serverCpuMs / total).toFixed(3)) : null,
    // The client runs on the same two cores: what it takes is not available to the server.
    clientCpuMsPerRequest: Number((clientCpuMs / total).toFixed(3)),
    loadAverage1m: Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]),
  };
}

/**
 * Audit records of the benchmarked tool, read from the store after the servers drained (SIGTERM
 * flushes the audit): every answered call must have one — a few more are fine (calls still in
 * flight when the client stopped were executed and audited, but not counted as answered).
 */
async function auditIntegrity(count: () => Promise<number>, answered: number) {
  const records = await count();
  return { answered, auditRecords: records, complete: records >= answered };
}

async function singleSqlite() {
  const url = await serve({});
  await probe(url);
  const warm = await load([url], Math.min(2, SECONDS)); // warm-up: JIT, caches, SQLite pages
  const result = await load([url], SECONDS);
  await stopAll();
  const audit = await auditIntegrity(
    async () => {
      const { default: Database } = await import('better-sqlite3');
      const db = new Database(join(office.dir, 'twinline.sqlite'), { readonly: true });
      try {
        const row = db
          .prepare(
            "SELECT count(*) AS n FROM audit_records WHERE tool = 'calendar_list' AND status = 'executed'",
          )
          .get() as { n: number };
        return row.n;
      } finally {
        db.close();
      }
    },
    1 + warm.answered + result.answered,
  );
  return { store: 'sqlite', ...result, audit };
}

/** An OTLP/HTTP endpoint on loopback that reads and counts export requests, and answers 200. */
async function otlpSink(): Promise<{
  url: string;
  stats: { requests: number; bytes: number };
  close(): Promise<void>;
}> {
  const stats = { requests: 0, bytes: 0 };
  const server = createServer((req, res) => {
    req.on('data', (c: Buffer) => {
      stats.bytes += c.length;
    });
    req.on('end', () => {
      stats.requests++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' });
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** (a') one process on SQLite with every request traced and exported. */
async function singleSqliteTraced() {
  const sink = await otlpSink();
  try {
    const url = await serve({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: sink.url });
    await probe(url);
    await load([url], Math.min(2, SECONDS));
    const result = await load([url], SECONDS);
    await stopAll();
    return { store: 'sqlite', tracing: 'otlp to a loopback sink', ...result, exported: { ...sink.stats } };
  } finally {
    await sink.close();
  }
}

async function pgUp(): Promise<boolean> {
  return (await postgresReachable(PG_ADMIN)) && (await redisReachable(REDIS_URL));
}

async function twoPostgres() {
  if (!(await pgUp())) {
    process.stderr.write('bench/http: PostgreSQL or Redis not reachable — two-process scenario skipped\n');
    return { skipped: 'PostgreSQL or Redis not reachable' };
  }
  const db = `twinline_bench_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${db}`);
  try {
    const env = {
      TWINLINE_DATABASE_URL: PG_ADMIN.replace(/\/[^/]*$/, `/${db}`),
      TWINLINE_REDIS_URL: REDIS_URL,
      TWINLINE_REDIS_PREFIX: db,
    };
    // Start one first so the schema is created once, then the second joins it.
    const a = await serve(env);
    const b = await serve(env);
    await probe(a);
    await probe(b);
    const warm = await load([a, b], Math.min(2, SECONDS));
    const result = await load([a, b], SECONDS);
    await stopAll();
    const audit = await auditIntegrity(
      async () => {
        const client = new pg.Client({ connectionString: env.TWINLINE_DATABASE_URL });
        await client.connect();
        try {
          const r = await client.query<{ n: string }>(
            "SELECT count(*) AS n FROM audit_records WHERE tool = 'calendar_list' AND status = 'executed'",
          );
          return Number(r.rows[0]?.n ?? 0);
        } finally {
          await client.end();
        }
      },
      2 + warm.answered + result.answered,
    );
    return { store: 'postgres+redis', ...result, audit };
  } finally {
    await stopAll();
    await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await admin.end();
  }
}

try {
  const single = process.env.BENCH_HTTP_TWO_ONLY ? { skipped: 'BENCH_HTTP_TWO_ONLY' } : await singleSqlite();
  process.stderr.write(`bench/http: single ${JSON.stringify(single)}\n`);
  const traced =
    process.env.BENCH_HTTP_TWO_ONLY || process.env.BENCH_HTTP_NO_TRACING
      ? { skipped: process.env.BENCH_HTTP_TWO_ONLY ? 'BENCH_HTTP_TWO_ONLY' : 'BENCH_HTTP_NO_TRACING' }
      : await singleSqliteTraced();
  process.stderr.write(`bench/http: single, traced ${JSON.stringify(traced)}\n`);
  const two = process.env.BENCH_HTTP_SINGLE_ONLY
    ? { skipped: 'BENCH_HTTP_SINGLE_ONLY' }
    : await twoPostgres();
  process.stdout.write(
    `${JSON.stringify({
      scenario: 'POST /v1/requests, quick line, cached read-only tool (calendar_list), audit on',
      target: { requestsPerSecond: 3000, p99Ms: 20 },
      singleProcessSqlite: single,
      singleProcessSqliteTraced: traced,
      // What tracing adds to one request's server CPU (ms), at the load of the two runs above.
      tracingCpuMsPerRequest:
        'serverCpuMsPerRequest' in single &&
        'serverCpuMsPerRequest' in traced &&
        single.serverCpuMsPerRequest !== null &&
        traced.serverCpuMsPerRequest !== null
          ? Number((traced.serverCpuMsPerRequest - single.serverCpuMsPerRequest).toFixed(3))
          : null,
      twoProcessesPostgresRedis: two,
    })}\n`,
  );
} finally {
  await stopAll();
  office.cleanup();
}
