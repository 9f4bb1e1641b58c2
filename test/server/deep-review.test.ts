import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { officeTempConfig } from '../support/office-temp.js';

let server: RunningServer;
let office: ReturnType<typeof officeTempConfig>;

async function api(method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  // biome-ignore lint/suspicious/noExplicitAny: assertions read response fields one by one.
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function until<T>(fn: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  office = officeTempConfig();
  const plan = {
    goal: 'Billing report of project atlas',
    capabilities: ['billing_report_query', 'salary_analysis'],
    steps: [
      { goal: 'Find the billing policy', tool: 'doc_search', args: { query: 'billing' } },
      {
        goal: 'Atlas billing for November',
        tool: 'billing_report_query',
        args: { period: '2026-11', project: 'atlas' },
      },
      { goal: 'Salaries too (never asked for)', tool: 'salary_analysis', args: { departments: ['rd'] } },
    ],
  };
  const script = join(office.dir, 'deep.json');
  // Each task replays this script: the plan declares billing_report_query.
  writeFileSync(
    script,
    JSON.stringify([{ text: JSON.stringify(plan) }, { text: 'Atlas billing reviewed and reported.' }]),
  );
  server = await startServer({
    port: 0,
    config: office.configFile,
    model: `scripted:${script}`,
    env: { ...process.env, TWINLINE_DATABASE_URL: '', TWINLINE_REDIS_URL: '' },
    log: () => {},
  });
});

afterAll(async () => {
  await server?.close();
  office?.cleanup();
});

describe('deep line through the API: review, approval, continuation', () => {
  it('a high-risk step waits for review; an approval runs it once and the task continues', async () => {
    const carol = 'tw-acme-carol-demo';
    const rita = 'tw-acme-rita-demo';
    const accepted = await api('POST', '/v1/requests', carol, { query: '分析 atlas 项目的账单并生成报告' });
    expect(accepted.status).toBe(202);
    expect(accepted.body.route.target).toBe('deep');
    const taskId = accepted.body.taskId as string;

    const parked = await until(async () => {
      const t = await api('GET', `/v1/tasks/${taskId}`, carol);
      return t.body.task?.status === 'awaiting_review' ? t.body : undefined;
    });
    expect(parked.steps.map((s: { status: string }) => s.status)).toEqual(['done', 'pending', 'pending']);

    // Carol cannot approve her own call; a reviewer of another tenant cannot see it.
    const reviews = await api('GET', '/v1/reviews?status=pending', rita);
    const review = reviews.body.reviews.find((r: { tool: string }) => r.tool === 'billing_report_query');
    expect(review.user).toBe('carol');
    expect(review.args).toEqual({ period: '2026-11', project: 'atlas' });
    expect((await api('POST', `/v1/reviews/${review.id}/approve`, carol, {})).status).toBe(403);
    expect((await api('POST', `/v1/reviews/${review.id}/approve`, 'tw-globex-gwen-demo', {})).status).toBe(
      404,
    );

    const approved = await api('POST', `/v1/reviews/${review.id}/approve`, rita, {});
    expect(approved.body.execution.status).toBe('executed');
    expect(approved.body.resumedTask).toBe(taskId);
    const again = await api('POST', `/v1/reviews/${review.id}/approve`, rita, {});
    expect(again.body.execution).toBeUndefined();

    const done = await until(async () => {
      const t = await api('GET', `/v1/tasks/${taskId}`, carol);
      return t.body.task?.status === 'completed' ? t.body : undefined;
    });
    expect(done.steps.map((s: { status: string }) => s.status)).toEqual(['done', 'done', 'failed']);
    // A finance analyst may not run salary analysis, whatever the plan says.
    expect(done.steps[2].error).toMatch(/^denied: /);

    await server.platform.store.audit.flush();
    const audit = await api('GET', '/v1/audit?tool=billing_report_query', rita);
    const statuses = audit.body.records.map((r: { status: string }) => r.status).sort();
    expect(statuses).toEqual(['executed', 'review']);
  });

  it('a plan cannot declare a high-risk capability the request never asked for', async () => {
    const carol = 'tw-acme-carol-demo';
    const accepted = await api('POST', '/v1/requests', carol, {
      query: '分析 atlas 项目的进展并生成报告',
      wait: true,
    });
    expect(accepted.body.route.target).toBe('deep');
    expect(accepted.body.outcome).toBe('completed');
    const t = await api('GET', `/v1/tasks/${accepted.body.taskId}`, carol);
    expect(t.body.steps[1].status).toBe('failed');
    expect(t.body.steps[1].error).toMatch(/never declared/);
    const pending = await api('GET', '/v1/reviews?status=pending', 'tw-acme-rita-demo');
    expect(
      pending.body.reviews.filter((r: { tool: string }) => r.tool === 'billing_report_query'),
    ).toHaveLength(0);
  });
});
