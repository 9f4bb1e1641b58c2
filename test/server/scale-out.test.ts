import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type NatsConnection, connect as natsConnect } from 'nats';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTEXT_SUBJECT_PREFIX } from '../../src/context/index.js';
import { ATLAS_BILLING_PLAN } from '../lines/office-fixture.js';
import { officeTempConfig } from '../support/office-temp.js';
import { PG_ADMIN_URL, postgresReachable, REDIS_URL, redisReachable } from '../support/services.js';

// Two real `twinline serve` processes on one PostgreSQL and one Redis behave as one gateway.
const PG_ADMIN = PG_ADMIN_URL;

const up = (await postgresReachable(PG_ADMIN)) && (await redisReachable(REDIS_URL));
if (!up)
  console.warn(
    '[skip] PostgreSQL (127.0.0.1:5432) or Redis (127.0.0.1:6379) not reachable — two-process scale-out test skipped',
  );

// The context bus: with NATS the deep pair publishes task summaries there (checked from outside).
const NATS_URL = process.env.TWINLINE_TEST_NATS_URL || 'nats://127.0.0.1:4222';
const nats: NatsConnection | undefined = up
  ? await natsConnect({ servers: NATS_URL, timeout: 1500, reconnect: false }).catch(() => undefined)
  : undefined;
if (up && !nats)
  console.warn(
    `[skip] NATS (${NATS_URL}) not reachable — the context-bus part of the scale-out test skipped`,
  );

const dbName = `twinline_scale_${process.pid}_${Date.now()}`;
let office: ReturnType<typeof officeTempConfig>;
const children: ChildProcess[] = [];

function serve(
  script: string,
  extraEnv: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
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
      env: {
        ...process.env,
        TWINLINE_DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${dbName}`,
        TWINLINE_REDIS_URL: REDIS_URL,
        TWINLINE_REDIS_PREFIX: dbName,
        TWINLINE_TASK_LEASE_MS: '800',
        TWINLINE_SWEEP_MS: '300',
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const m = /API:\s+(http:\/\/\S+)\/v1/.exec(line);
      if (m) resolve({ child, url: m[1]! });
    });
    child.once('exit', (code) => reject(new Error(`serve exited early (${code})`)));
  });
}

async function post(url: string, key: string, path: string, body: unknown) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function get(url: string, key: string, path: string) {
  const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return (await res.json()) as Record<string, unknown>;
}

beforeAll(async () => {
  if (!up) return;
  office = officeTempConfig();
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
});

afterAll(async () => {
  await nats?.close();
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  if (!up) return;
  await new Promise((r) => setTimeout(r, 200));
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
  office?.cleanup();
});

describe('scale-out: two serve processes on PostgreSQL and Redis', () => {
  it('share one QPS budget, execute an approved review once, and resume each other’s tasks', async (ctx) => {
    if (!up) return ctx.skip();
    const quick = join(office.dir, 'quick.json');
    writeFileSync(
      quick,
      JSON.stringify([
        { tool_calls: [{ name: 'calendar_list', arguments: { from: '2026-01-01', to: '2026-12-31' } }] },
        { text: 'ok' },
      ]),
    );
    const plan = ATLAS_BILLING_PLAN;
    const deep = join(office.dir, 'deep.json');
    writeFileSync(deep, JSON.stringify({ turns: [{ text: JSON.stringify(plan) }, { text: 'reported' }] }));

    // Every summary either process puts on the context bus for tenant acme.
    const summaries: { user: string; fromLine: string; summary: string }[] = [];
    const sub = nats?.subscribe(`${CONTEXT_SUBJECT_PREFIX}.acme.>`);
    void (async () => {
      for await (const m of sub ?? []) summaries.push(m.json());
    })();

    // A model file both lines can read: the quick line replays `quick`; the planner plays `deep`.
    const bus: Record<string, string> = nats ? { TWINLINE_NATS_URL: NATS_URL } : {};
    const a = await serve(deep, { TWINLINE_QUICK_QPS: '5', ...bus });
    const b = await serve(deep, { TWINLINE_QUICK_QPS: '5', ...bus });

    // 1. One QPS budget across both processes (Redis): 20 quick calls at once, 5 allowed.
    // 5 calls per 60 s window, so a slow machine cannot spread the burst over two windows.
    const limits = { TWINLINE_QUICK_QPS: '5', TWINLINE_QUICK_WINDOW_S: '60' };
    const quickA = await serve(quick, limits);
    const quickB = await serve(quick, limits);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(i % 2 ? quickA.url : quickB.url, 'tw-acme-alice-demo', '/v1/requests', {
          query: '查一下这周的日程安排',
        }),
      ),
    );
    const outcomes = results.map((r) => r.body.outcome);
    const executed = outcomes.filter((o) => o === 'completed').length;
    const limited = outcomes.filter((o) => o === 'rate_limited').length;
    expect(executed + limited, JSON.stringify(results.slice(0, 2))).toBe(20);
    // Per-process limits would let 10 through; the shared budget lets exactly 5.
    expect(executed).toBe(5);

    // The quick-line pair plays a different script; stop them so only A and B serve tasks.
    quickA.child.kill('SIGTERM');
    quickB.child.kill('SIGTERM');

    // 2. A review approved on both processes at once executes exactly once.
    const accepted = await post(a.url, 'tw-acme-carol-demo', '/v1/requests', {
      query: '分析 atlas 项目的账单并生成报告',
    });
    const taskId = accepted.body.taskId as string;
    let reviewId: string | undefined;
    for (let i = 0; i < 100 && !reviewId; i++) {
      const list = (await get(b.url, 'tw-acme-rita-demo', '/v1/reviews?status=pending')).reviews as {
        id: string;
        tool: string;
      }[];
      reviewId = list.find((r) => r.tool === 'billing_report_query')?.id;
      if (!reviewId) await new Promise((r) => setTimeout(r, 100));
    }
    expect(
      reviewId,
      JSON.stringify(await get(a.url, 'tw-acme-carol-demo', `/v1/tasks/${taskId}`)),
    ).toBeTruthy();
    const [onA, onB] = await Promise.all([
      post(a.url, 'tw-acme-rita-demo', `/v1/reviews/${reviewId}/approve`, {}),
      post(b.url, 'tw-acme-rita-demo', `/v1/reviews/${reviewId}/approve`, {}),
    ]);
    const executions = [onA.body.execution, onB.body.execution].filter(Boolean);
    expect(executions).toHaveLength(1);
    let firstStatus = '';
    for (let i = 0; i < 300 && firstStatus !== 'completed'; i++) {
      firstStatus = (
        (await get(a.url, 'tw-acme-carol-demo', `/v1/tasks/${taskId}`)).task as { status: string }
      ).status;
      if (firstStatus !== 'completed') await new Promise((r) => setTimeout(r, 100));
    }
    // The audit is written in batches (within ~20 ms, later on a busy machine): wait for the record,
    // then make sure no second execution's record follows it.
    const executedRecords = async () =>
      (
        (await get(b.url, 'tw-acme-rita-demo', '/v1/audit?tool=billing_report_query&limit=50')).records as {
          status: string;
        }[]
      ).filter((r) => r.status === 'executed');
    expect(firstStatus, JSON.stringify(await get(a.url, 'tw-acme-carol-demo', `/v1/tasks/${taskId}`))).toBe(
      'completed',
    );
    let audited = await executedRecords();
    for (let i = 0; i < 100 && audited.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      audited = await executedRecords();
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(await executedRecords()).toHaveLength(1);
    if (nats) {
      // The finished task's one-line summary went out on NATS, where the other process hears it.
      for (let i = 0; i < 50 && !summaries.some((e) => e.summary.includes(taskId)); i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(summaries, `task ${firstStatus}; on the bus: ${JSON.stringify(summaries)}`).toContainEqual(
        expect.objectContaining({
          user: 'carol',
          fromLine: 'deep',
          summary: expect.stringContaining(taskId),
        }),
      );
    }

    // 3. A task accepted by A, which is then killed, is finished by B.
    const second = await post(a.url, 'tw-acme-frank-demo', '/v1/requests', {
      query: '分析 atlas 项目的账单并生成报告',
    });
    a.child.kill('SIGKILL');
    const secondId = second.body.taskId as string;
    let status = '';
    for (let i = 0; i < 300 && status !== 'completed'; i++) {
      status = ((await get(b.url, 'tw-acme-frank-demo', `/v1/tasks/${secondId}`)).task as { status: string })
        .status;
      if (status !== 'completed') await new Promise((r) => setTimeout(r, 100));
    }
    // Frank owns atlas: B took the task over, parked it on its billing step, and B's sweep let the
    // reviewers file approve the report by rule, ran it, and woke the task.
    expect(status, JSON.stringify(await get(b.url, 'tw-acme-frank-demo', `/v1/tasks/${secondId}`))).toBe(
      'completed',
    );
    sub?.unsubscribe();
  }, 90_000);
});
