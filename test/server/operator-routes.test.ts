import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripWatermark } from '../../src/gates/index.js';
import type { RunningServer } from '../../src/server/index.js';
import { auditCsv } from '../../src/server/routes/audit-views.js';
import type { AuditRecord } from '../../src/store/index.js';
import { MOBILE, RESIDENT_ID } from '../support/hostile-answer.js';
import { REVIEW_BAND_MARKER, REVIEW_BAND_REQUEST } from '../support/review-band.js';
import { serveScripted } from '../support/scripted-server.js';

/** The office demo's operator key for /metrics (examples/office/auth.yaml). */
const METRICS_AUTH = { headers: { authorization: 'Bearer tw-metrics-demo' } };

// The operator routes and the decision log through the real HTTP API: what the audit keeps of a
// call's arguments (and what each viewer is shown of it), what decided it, the input gate's
// records, the explanation, exports, a task's live timeline and raw outputs, the overview and the
// metrics — each scoped to the caller's tenant and, for an employee, to their own records.

const cleanups: (() => void)[] = [];
let quick: RunningServer;
let deep: RunningServer;
let quickDb: string;
const PII_NAME = `张伟 ${MOBILE} ${RESIDENT_ID}`;

async function serve(script: unknown): Promise<RunningServer> {
  const { server, dir, cleanup } = await serveScripted(script);
  cleanups.push(cleanup);
  quickDb ??= join(dir, 'twinline.sqlite');
  return server;
}

async function call(
  server: RunningServer,
  method: string,
  path: string,
  user: string,
  body?: unknown,
  tenant = 'acme',
) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer tw-${tenant}-${user}-demo`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const raw = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field.
  return { status: res.status, raw, headers: res.headers, body: parsed as Record<string, any> };
}

beforeAll(async () => {
  quick = await serve([
    { tool_calls: [{ name: 'customer_lookup', arguments: { name: PII_NAME } }] },
    { text: 'No such customer.' },
  ]);
  deep = await serve([
    {
      text: JSON.stringify({
        goal: 'Atlas documents',
        capabilities: [],
        steps: [{ goal: 'Find the billing policy', tool: 'doc_search', args: { query: 'billing' } }],
      }),
    },
    { text: 'The billing policy is in the handbook.' },
  ]);
  expect(
    (await call(quick, 'POST', '/v1/requests', 'bob', { query: '查一下客户张伟的联系方式' })).status,
  ).toBe(200);
  expect(
    (
      await call(quick, 'POST', '/v1/requests', 'alice', {
        query: REVIEW_BAND_REQUEST,
      })
    ).body.outcome,
  ).toBe('review');
  await quick.platform.store.audit.flush();
});

afterAll(async () => {
  await quick?.close();
  await deep?.close();
  for (const c of cleanups) c();
});

describe('the decision log', () => {
  it('keeps the arguments redacted for the audit level (L3): the phone, never the resident ID; the grant that allowed the call', async () => {
    const [rec] = await quick.platform.store.audit.query({ tool: 'customer_lookup', limit: 1 });
    expect(rec!.status).toBe('executed');
    expect(rec!.argsLevel).toBe('L3');
    const stored = JSON.stringify(rec!.args);
    expect(stored).toContain(MOBILE);
    expect(stored).not.toContain(RESIDENT_ID);
    // Executed: decided by the policy rule that granted it, not the breaker it passed last.
    expect(rec!.decisionPath.at(-1)!.stage).toBe('breaker');
    expect(rec!.decidedBy).toMatchObject({ stage: 'policy', verdict: 'allow' });
    expect(rec!.decidedBy!.ruleId).toMatch(/^grant\./);
    // Stored as versioned JSON beside the filter columns.
    const db = new Database(quickDb, { readonly: true });
    try {
      const row = db
        .prepare('select decided_stage, decided_rule, decision_log from audit_records where id = ?')
        .get(rec!.id) as { decided_stage: string; decided_rule: string; decision_log: string };
      expect(row.decided_stage).toBe('policy');
      expect(JSON.parse(row.decision_log)).toMatchObject({ version: 1, argsLevel: 'L3' });
      expect(row.decision_log).not.toContain(RESIDENT_ID);
    } finally {
      db.close();
    }
  });

  it('shows each viewer the arguments at their own level: rita (L3) the phone, bob (L2) neither', async () => {
    const asRita = await call(quick, 'GET', '/v1/audit?tool=customer_lookup', 'rita');
    expect(stripWatermark(asRita.raw)).toContain(MOBILE);
    expect(stripWatermark(asRita.raw)).not.toContain(RESIDENT_ID);
    const asBob = await call(quick, 'GET', '/v1/audit?tool=customer_lookup', 'bob');
    expect(asBob.body.records).toHaveLength(1);
    expect(asBob.body.records[0].argsLevel).toBe('L2');
    expect(stripWatermark(asBob.raw)).not.toContain(MOBILE);
    expect(stripWatermark(asBob.raw)).not.toContain(RESIDENT_ID);
  });

  it('writes the input gate’s stops to the audit, linked to their review', async () => {
    const r = await call(quick, 'GET', '/v1/audit?tool=twinline.input', 'alice');
    expect(r.body.records).toHaveLength(1);
    const rec = r.body.records[0];
    expect(rec.status).toBe('review');
    expect(rec.decidedBy).toMatchObject({ stage: 'input', ruleId: 'input.review' });
    expect(rec.decisionPath[0].reason).toMatch(/^input gate: review \(score/);
    expect(stripWatermark(JSON.stringify(rec.args))).toContain(REVIEW_BAND_MARKER);
    const reviews = await call(quick, 'GET', '/v1/reviews', 'rita');
    const review = reviews.body.reviews.find((x: { tool: string }) => x.tool === 'twinline.input');
    expect(rec.reviewId).toBe(review.id);
    expect(review.request).toContain(REVIEW_BAND_MARKER);
    expect(review.requester).toEqual({ roles: ['employee'], dataLevel: 'L1' });
    // The review's audit is one filter away.
    const linked = await call(quick, 'GET', `/v1/audit?reviewId=${review.id}`, 'rita');
    expect(linked.body.records.map((x: { id: string }) => x.id)).toEqual([rec.id]);
  });

  it('filters by status, deciding stage and rule; an employee’s filter never reaches others', async () => {
    const byRule = await call(quick, 'GET', '/v1/audit?stage=policy&status=executed', 'rita');
    expect(byRule.body.records.map((x: { tool: string }) => x.tool)).toEqual(['customer_lookup']);
    const spoofed = await call(quick, 'GET', '/v1/audit?user=bob', 'alice');
    expect(spoofed.body.records.every((x: { user: string }) => x.user === 'alice')).toBe(true);
    const bad = await call(quick, 'GET', '/v1/audit?status=maybe', 'rita');
    expect(bad.status).toBe(400);
    expect(bad.body.field).toMatch(/status/);
  });
});

describe('explain, export, one record', () => {
  it('explains a record as check --explain does, for those who may read it; 404 for others and other tenants', async () => {
    const [rec] = await quick.platform.store.audit.query({ tool: 'customer_lookup', limit: 1 });
    const own = await call(quick, 'GET', `/v1/audit/${rec!.id}/explain`, 'bob');
    expect(own.status).toBe(200);
    const text = stripWatermark((own.body.text as string[]).join('\n'));
    expect(text).toContain('acme/bob -> customer_lookup: EXECUTED');
    expect(text).toMatch(/decided by: policy \(grant\./);
    expect(text).toContain('profile: check(serve.quick)');
    // The logged arguments were redacted (the resident ID), so the call is not decided again.
    expect(own.body.argsExact).toBe(false);
    expect(own.body.note).toMatch(/redacted/);
    expect((await call(quick, 'GET', `/v1/audit/${rec!.id}/explain`, 'alice')).status).toBe(404);
    expect((await call(quick, 'GET', `/v1/audit/${rec!.id}`, 'gwen', undefined, 'globex')).status).toBe(404);
    expect((await call(quick, 'GET', `/v1/audit/${rec!.id}`, 'audrey')).status).toBe(200);
  });

  it('exports the filtered, gated rows as CSV (formulas defused) and JSON', async () => {
    const csv = await call(quick, 'GET', '/v1/audit/export?format=csv&tool=customer_lookup', 'rita');
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(/attachment; filename="twinline-audit-.*\.csv"/);
    const lines = csv.raw.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(stripWatermark(csv.raw)).not.toContain(RESIDENT_ID);
    const json = await call(quick, 'GET', '/v1/audit/export?format=json', 'bob');
    expect(json.body.records.every((r: { user: string }) => r.user === 'bob')).toBe(true);
    const record = {
      ...(await quick.platform.store.audit.query({ limit: 1 }))[0]!,
      resultSummary: '=HYPERLINK("x")',
    };
    const out = auditCsv([record as AuditRecord]);
    expect(out).toContain(`"'=HYPERLINK(""x"")"`);
  });

  it('a denial without a note is refused, naming the field', async () => {
    const reviews = await call(quick, 'GET', '/v1/reviews', 'rita');
    const r = await call(quick, 'POST', `/v1/reviews/${reviews.body.reviews[0].id}/deny`, 'rita', {});
    expect(r.status).toBe(400);
    expect(r.body.field).toMatch(/note/);
    const blank = await call(quick, 'POST', `/v1/reviews/${reviews.body.reviews[0].id}/deny`, 'rita', {
      note: '   ',
    });
    expect(blank.status).toBe(400);
  });
});

describe('tasks: live timeline and raw outputs', () => {
  it('streams a task’s status, steps and gated answer as SSE, then ends', async () => {
    const r = await call(deep, 'POST', '/v1/requests', 'alice', { query: '分析 atlas 项目的账单并生成报告' });
    expect(r.status).toBe(202);
    const taskId = r.body.taskId as string;
    const res = await fetch(`${deep.url}/v1/tasks/${taskId}/events`, {
      headers: { authorization: 'Bearer tw-acme-alice-demo' },
    });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const events = (await res.text())
      .split('\n\n')
      .filter((b) => b.trim())
      .map((b) => ({ name: /^event: (.*)$/m.exec(b)![1]!, data: JSON.parse(/^data: (.*)$/m.exec(b)![1]!) }));
    expect(events[0]!.name).toBe('task');
    const final = events.at(-1)!;
    expect(final.name).toBe('final');
    expect(final.data.status).toBe('completed');
    expect(final.data.result).not.toBe(stripWatermark(final.data.result));
    expect(stripWatermark(final.data.result)).toContain('handbook');
    expect(events.filter((e) => e.name === 'step').at(-1)!.data).toMatchObject({ stepNo: 1, status: 'done' });
    // Another employee cannot follow it.
    const other = await fetch(`${deep.url}/v1/tasks/${taskId}/events`, {
      headers: { authorization: 'Bearer tw-acme-bob-demo' },
    });
    expect(other.status).toBe(404);

    const raw = await call(deep, 'GET', `/v1/tasks/${taskId}/steps/1/raw`, 'alice');
    expect(raw.status).toBe(200);
    expect(raw.body).toMatchObject({ taskId, stepNo: 1, tool: 'doc_search', viewerLevel: 'L1' });
    expect(raw.body.output).toBeDefined();
    expect((await call(deep, 'GET', `/v1/tasks/${taskId}/steps/1/raw`, 'bob')).status).toBe(404);
    expect((await call(deep, 'GET', `/v1/tasks/${taskId}/steps/9/raw`, 'alice')).status).toBe(404);
    expect((await call(deep, 'GET', `/v1/tasks/${taskId}/steps/x/raw`, 'alice')).status).toBe(400);
  }, 30_000);
});

describe('overview and metrics', () => {
  it('the overview counts the caller’s tenant (an employee: her own calls) and lists breakers and the queue', async () => {
    const asRita = await call(quick, 'GET', '/v1/overview?hours=1&buckets=6', 'rita');
    expect(asRita.body.buckets).toHaveLength(6);
    const total = (b: { counts: Record<string, number> }[]) =>
      b.reduce((s, x) => s + Object.values(x.counts).reduce((a, c) => a + c, 0), 0);
    expect(total(asRita.body.buckets)).toBe(asRita.body.records);
    expect(asRita.body.records).toBeGreaterThanOrEqual(2);
    expect(asRita.body.reviews.pending).toBeGreaterThanOrEqual(1);
    expect(asRita.body.latencyByLine.map((l: { line: string }) => l.line)).toContain('quick');
    const asAlice = await call(quick, 'GET', '/v1/overview', 'alice');
    expect(asAlice.body.records).toBe(1);
    expect(asAlice.body.reviews).toBeUndefined();
    const other = await call(quick, 'GET', '/v1/overview', 'gwen', undefined, 'globex');
    expect(other.body.records).toBe(0);
    expect((await call(quick, 'GET', '/v1/overview?hours=0', 'rita')).status).toBe(400);
  });

  it('/metrics has decisions by stage, verdict and rule, stage latency, model latency and tokens, queue wait, review age — and no tenant or user label', async () => {
    await call(deep, 'POST', '/v1/requests', 'alice', {
      query: '分析 atlas 项目的账单并生成报告',
      wait: true,
    });
    const text =
      (await (await fetch(`${quick.url}/metrics`, METRICS_AUTH)).text()) +
      (await (await fetch(`${deep.url}/metrics`, METRICS_AUTH)).text());
    expect(text).toMatch(
      /twinline_stage_decisions_total\{stage="policy",verdict="allow",rule="grant\.[a-z_]+"\} 1/,
    );
    expect(text).toMatch(
      /twinline_stage_decisions_total\{stage="access",verdict="allow",rule="access.allowed"\}/,
    );
    expect(text).toMatch(/twinline_stage_duration_seconds_bucket\{le="[0-9.e-]+",stage="execute"\}/);
    expect(text).toMatch(
      /twinline_model_turn_duration_seconds_count\{provider="scripted",model="[^"]+",outcome="ok"\} [1-9]/,
    );
    expect(text).toMatch(
      /twinline_model_tokens_total\{provider="scripted",model="[^"]+",type="input"\} [1-9]/,
    );
    expect(text).toMatch(/twinline_queue_wait_seconds_count\{line="deep"\} [1-9]/);
    expect(text).toMatch(/twinline_input_gate_total\{verdict="review"\} 1/);
    expect(text).toMatch(/twinline_review_queue_pending [1-9]/);
    expect(text).toMatch(/twinline_review_queue_oldest_age_seconds [0-9.]+/);
    expect(text).not.toMatch(/tenant="|user="|acme|alice|bob|张伟/);
  }, 30_000);
});
