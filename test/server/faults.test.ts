import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createPlatform, type Platform } from '../../src/platform/index.js';
import { buildServer, loadAuthFile, ServerMetrics } from '../../src/server/index.js';
import type { ToolSpec } from '../../src/tools/index.js';
import { officeTempConfig } from '../support/office-temp.js';
import {
  type PrivatePostgres,
  privatePostgresUnavailable,
  startPrivatePostgres,
} from '../support/private-postgres.js';
import { PG_ADMIN_URL, postgresReachable } from '../support/services.js';

// Faults a gateway in front of real systems must survive: a flaky tool, a database that drops its
// connections or restarts under load, and a shutdown in the middle of a request.

const PG_ADMIN = PG_ADMIN_URL;
const QUERY = '查一下这周的日程安排';
const offices: ReturnType<typeof officeTempConfig>[] = [];
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const o of offices) o.cleanup();
});

function office() {
  const o = officeTempConfig();
  offices.push(o);
  return o;
}

/** A quick-line script: one read of the calendar (dates vary so the read cache cannot answer), then text. */
function calendarScript(file: string, day: number, extra: Record<string, unknown> = {}): string {
  const from = `2026-0${1 + Math.floor(day / 28)}-${String(1 + (day % 28)).padStart(2, '0')}`;
  writeFileSync(
    file,
    JSON.stringify([
      { ...extra, tool_calls: [{ name: 'calendar_list', arguments: { from, to: '2026-12-31' } }] },
      { text: 'Here is your calendar.' },
    ]),
  );
  return file;
}

async function postJson(url: string, key: string, body: unknown) {
  const res = await fetch(`${url}/v1/requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as Record<string, unknown> };
}

function serve(
  configFile: string,
  script: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; lines: string[] }> {
  const child = spawn(
    process.execPath,
    ['bin/twinline.js', 'serve', '--port', '0', '--config', configFile, '--model', `scripted:${script}`],
    {
      env: { ...process.env, TWINLINE_DATABASE_URL: '', TWINLINE_REDIS_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const m = /API:\s+(http:\/\/\S+)\/v1/.exec(line);
      if (m) resolve({ child, url: m[1]!, lines });
    });
    child.once('exit', (code) => reject(new Error(`serve exited early (${code})`)));
  });
}

describe('a tool failing 40% of its calls', () => {
  let platform: Platform | undefined;
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    await platform?.close();
  });

  it('trips its breaker (the agent is told it is unavailable), and recovers after a half-open success', async () => {
    const o = office();
    const config = loadConfig(o.configFile);
    const script = join(o.dir, 'model.json');
    calendarScript(script, 0);
    // The calendar backend fails on 2 of every 5 calls while `failing` holds.
    let failing = true;
    let calls = 0;
    const flaky = (tool: ToolSpec): ToolSpec =>
      tool.name !== 'calendar_list'
        ? tool
        : {
            ...tool,
            async execute(args, ctx) {
              const n = calls++;
              if (failing && (n % 5 === 2 || n % 5 === 4))
                throw new Error('calendar backend: connection reset');
              return tool.execute(args, ctx);
            },
          };
    platform = await createPlatform(config, {
      env: { ...process.env, TWINLINE_DATABASE_URL: '', TWINLINE_REDIS_URL: '', TWINLINE_NATS_URL: '' },
      model: `scripted:${script}`,
      quickQps: 10_000,
      wrapTool: flaky,
      // The seed's thresholds; a short wait before half-open keeps the test fast.
      breakers: { errorThresholdPercentage: 30, volumeThreshold: 20, resetTimeoutMs: 2_000 },
    });
    const auth = loadAuthFile(config.file, process.env);
    app = buildServer({
      platform,
      auth: auth.settings,
      reviewerRoles: auth.reviewerRoles,
      metrics: new ServerMetrics(platform),
      metricsKeys: auth.metricsKeys,
      version: 'test',
    });
    const url = (await app.listen({ port: 0, host: '127.0.0.1' })).replace('[::1]', 'localhost');
    const key = 'tw-acme-alice-demo';
    const breakerState = async () => {
      const res = await fetch(`${url}/v1/breakers`, { headers: { authorization: `Bearer ${key}` } });
      const body = (await res.json()) as { breakers: { tool: string; state: string }[] };
      return body.breakers.find((b) => b.tool === 'calendar_list')?.state;
    };
    const metricValue = async () => {
      const res = await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer tw-metrics-demo' } });
      const text = await res.text();
      // The tenant's own breaker, counted per tool and state (labels name no tenant).
      const count = (state: string) =>
        Number(
          new RegExp(
            `^twinline_tenant_breakers\\{tool="calendar_list",state="${state}"\\} (\\S+)$`,
            'm',
          ).exec(text)?.[1],
        );
      return count('open') === 1 ? 1 : count('half_open') === 1 ? 0.5 : 0;
    };

    // 20 calls, 8 of them failing (40% > 30%): the breaker opens on the 20th.
    const outcomes: string[] = [];
    for (let i = 0; i < 20; i++) {
      calendarScript(script, i + 1);
      const r = await postJson(url, key, { query: QUERY });
      expect(r.status, r.text).toBe(200);
      outcomes.push(String(r.body.outcome));
    }
    expect(calls).toBe(20);
    expect(await breakerState()).toBe('open');
    expect(await metricValue()).toBe(1);

    // Open: the call never reaches the backend; the agent gets a decision, not an exception.
    calendarScript(script, 30);
    const res = await fetch(`${url}/v1/requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: QUERY, stream: true }),
    });
    const events = await res.text();
    expect(res.status).toBe(200);
    expect(events).toContain('temporarily unavailable');
    // The request's own result is the last `result` event (the agent's run reports one before it).
    const results = [...events.matchAll(/event: result\ndata: (.*)\n/g)];
    const result = JSON.parse(results[results.length - 1]![1]!) as { outcome: string; denied: string[] };
    expect(result.outcome).toBe('denied');
    expect(result.denied).toContain('calendar_list');
    expect(calls).toBe(20);

    // The backend recovers; after the reset timeout one trial call goes through and closes it.
    failing = false;
    for (let i = 0; i < 200 && platform.breakers.state('acme', 'calendar_list') !== 'half_open'; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await breakerState()).toBe('half_open');
    expect(await metricValue()).toBe(0.5);
    calendarScript(script, 31);
    const trial = await postJson(url, key, { query: QUERY });
    expect(trial.body.executed).toContain('calendar_list');
    expect(await breakerState()).toBe('closed');
    expect(await metricValue()).toBe(0);

    // The audit names the refusal with its rule.
    await platform.store.audit.flush();
    const denied = await platform.store.audit.query({ tool: 'calendar_list', limit: 100 });
    expect(denied.some((r) => r.status === 'denied' && JSON.stringify(r).includes('circuit-open'))).toBe(
      true,
    );
  }, 30_000);
});

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly text: string;
  /** When the answer arrived (Date.now()). */
  readonly at: number;
}

/**
 * 8 clients for `ms`: six send quick-line requests (each executes the calendar tool, so each writes
 * an audit record), two read the audit (each needs the database while it answers).
 */
async function driveLoad(url: string, ms: number): Promise<Answer[]> {
  const users = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'rita', 'mallory'];
  const answers: Answer[] = [];
  const started = Date.now();
  await Promise.all(
    users.map(async (user, i) => {
      while (Date.now() - started < ms) {
        const key = `tw-acme-${user}-demo`;
        if (i % 4 === 3) {
          const res = await fetch(`${url}/v1/audit?limit=5`, { headers: { authorization: `Bearer ${key}` } });
          const text = await res.text();
          answers.push({
            status: res.status,
            text,
            body: JSON.parse(text) as Record<string, unknown>,
            at: Date.now(),
          });
        } else {
          answers.push({ ...(await postJson(url, key, { query: QUERY })), at: Date.now() });
        }
      }
    }),
  );
  return answers;
}

/**
 * Every answer is JSON: a success, or "unavailable, retry" (503 with Retry-After's figure) — never
 * an internal error. Returns the executed calls.
 */
function expectCleanAnswers(answers: readonly Answer[]): Answer[] {
  for (const a of answers) {
    if (a.status !== 200) {
      expect(a.status, a.text).toBe(503);
      expect(a.body, a.text).toMatchObject({ error: 'unavailable', retryAfterMs: 1000 });
    }
  }
  return answers.filter(
    (a) => a.status === 200 && Array.isArray(a.body.executed) && a.body.executed.includes('calendar_list'),
  );
}

/**
 * Once the database is left alone the gateway answers again, and every executed call of a 200
 * answer has its audit record (the writer retries a failed batch until it lands).
 */
async function expectAnswersAgainAndAuditComplete(
  url: string,
  dbUrl: string,
  executed: readonly Answer[],
): Promise<void> {
  let health = 0;
  for (let i = 0; i < 100 && health !== 200; i++) {
    health = (await fetch(`${url}/v1/health`)).status;
    if (health !== 200) await new Promise((r) => setTimeout(r, 100));
  }
  expect(health).toBe(200);
  const sessions = new Set(executed.map((a) => String(a.body.sessionId)));
  let missing = [...sessions];
  const reader = new pg.Client({ connectionString: dbUrl });
  await reader.connect();
  try {
    for (let i = 0; i < 100 && missing.length > 0; i++) {
      const rows = await reader.query<{ session_id: string }>(
        `SELECT DISTINCT session_id FROM audit_records WHERE tool = 'calendar_list' AND status = 'executed'`,
      );
      const seen = new Set(rows.rows.map((r) => r.session_id));
      missing = missing.filter((s) => !seen.has(s));
      if (missing.length > 0) await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await reader.end();
  }
  expect(missing, `${missing.length} of ${sessions.size} executed calls lack an audit record`).toEqual([]);
}

const pgUp = await postgresReachable(PG_ADMIN);
if (!pgUp)
  console.warn('[skip] PostgreSQL (127.0.0.1:5432) not reachable — database-outage fault test skipped');

describe('PostgreSQL dropping every connection of the gateway mid-load', () => {
  it('answers every request cleanly, stays up, and loses no audit record of an executed call', async (ctx) => {
    if (!pgUp) return ctx.skip();
    const o = office();
    const db = `twinline_faults_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${db}`);
    try {
      const script = calendarScript(join(o.dir, 'model.json'), 3);
      const dbUrl = `postgres://postgres@127.0.0.1:5432/${db}`;
      const { child, url } = await serve(o.configFile, script, {
        TWINLINE_DATABASE_URL: dbUrl,
        TWINLINE_QUICK_QPS: '100000',
      });

      // Terminate every backend of this test's database (a restart, as far as the gateway can tell)
      // every 100 ms, while 8 clients send requests: quick-line calls (audit writes) and audit reads.
      let loading = true;
      let kills = 0;
      const killer = (async () => {
        while (loading) {
          const r = await admin.query(
            'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
            [db],
          );
          kills += r.rowCount ?? 0;
          await new Promise((res) => setTimeout(res, 100));
        }
      })();
      const answers = await driveLoad(url, 3000);
      loading = false;
      await killer;

      expect(kills).toBeGreaterThan(0);
      expect(child.exitCode).toBeNull();
      const executed = expectCleanAnswers(answers);
      expect(executed.length).toBeGreaterThan(4);
      await expectAnswersAgainAndAuditComplete(url, dbUrl, executed);
      child.kill('SIGTERM');
    } finally {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
      await admin.end();
    }
  }, 60_000);
});

const privatePgMissing = privatePostgresUnavailable();
if (privatePgMissing) console.warn(`[skip] ${privatePgMissing} — PostgreSQL restart fault test skipped`);

describe('PostgreSQL restarted mid-load', () => {
  let server: PrivatePostgres | undefined;
  afterEach(async () => {
    await server?.destroy();
    server = undefined;
  });

  it('keeps the gateway up, answers cleanly while it is down, recovers, and loses no audit record', async (ctx) => {
    if (privatePgMissing) return ctx.skip();
    // A server of the test's own: stopping the shared one would break every other test using it.
    server = await startPrivatePostgres();
    const o = office();
    const script = calendarScript(join(o.dir, 'model.json'), 4);
    const { child, url } = await serve(o.configFile, script, {
      TWINLINE_DATABASE_URL: server.url,
      TWINLINE_QUICK_QPS: '100000',
    });

    // Stop (fast shutdown: every connection closed) 0.8 s into the load, start again 1 s later.
    const pgServer = server;
    let downAt = 0;
    let upAt = 0;
    const restart = (async () => {
      await new Promise((r) => setTimeout(r, 800));
      downAt = Date.now();
      await pgServer.stop();
      await new Promise((r) => setTimeout(r, 1000));
      await pgServer.start();
      upAt = Date.now();
    })();
    const answers = await driveLoad(url, 4000);
    await restart;

    expect(upAt).toBeGreaterThan(downAt);
    expect(child.exitCode).toBeNull();
    const executed = expectCleanAnswers(answers);
    // Served before the stop and again after the start, by the same process.
    expect(executed.some((a) => a.at < downAt)).toBe(true);
    expect(executed.some((a) => a.at > upAt)).toBe(true);
    // While the server was down, the audit reads had no database: each got a clean error.
    const failedReads = answers.filter((a) => a.status !== 200 && a.at > downAt && a.at < upAt + 1000);
    expect(failedReads.length).toBeGreaterThan(0);
    // Calls executed while the database was down were audited once it was back.
    await expectAnswersAgainAndAuditComplete(url, server.url, executed);
    child.kill('SIGTERM');
  }, 60_000);
});

describe('SIGTERM', () => {
  it('drains the in-flight request (200), refuses new connections, and exits 0', async () => {
    const o = office();
    // The model thinks for 3 s before calling the tool: the request is in flight when SIGTERM lands.
    const script = calendarScript(join(o.dir, 'model.json'), 5, { delay_ms: 3000 });
    const { child, url, lines } = await serve(o.configFile, script, {});
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));

    const slow = postJson(url, 'tw-acme-alice-demo', { query: QUERY });
    let slowSettled = false;
    const settle = () => {
      slowSettled = true;
    };
    slow.then(settle, settle);
    // The routing log records the request once it is routed and running.
    for (let i = 0; i < 200; i++) {
      const res = await fetch(`${url}/v1/routing`, {
        headers: { authorization: 'Bearer tw-acme-rita-demo' },
      });
      if (((await res.json()) as { decisions: unknown[] }).decisions.length > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGTERM');
    for (let i = 0; i < 200 && !lines.some((l) => l.includes('draining')); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }

    // A fresh connection (no pooled keep-alive socket) is refused while the slow request drains.
    const port = Number(new URL(url).port);
    const connect = () =>
      new Promise<string>((resolve) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/v1/health', agent: false }, (res) => {
          res.resume();
          resolve(`status ${res.statusCode}`);
        });
        req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
        req.end();
      });
    let fresh = await connect();
    for (let i = 0; i < 50 && fresh !== 'ECONNREFUSED'; i++) {
      await new Promise((r) => setTimeout(r, 10));
      fresh = await connect();
    }
    expect(fresh).toBe('ECONNREFUSED');
    expect(slowSettled, 'the slow request was still in flight when new connections were refused').toBe(false);

    const done = await slow;
    expect(done.status, done.text).toBe(200);
    expect(done.body.outcome).toBe('completed');
    expect(done.body.executed).toContain('calendar_list');
    expect(await exited).toBe(0);
  }, 30_000);
});
