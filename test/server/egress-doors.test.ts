import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_EVENT_EGRESS } from '../../src/agent/index.js';
import { stripWatermark } from '../../src/gates/index.js';
import { LINE_EVENT_EGRESS } from '../../src/lines/index.js';
import { registeredRoutes } from '../../src/server/app.js';
import { buildServer, loadAuthFile, type RunningServer, startServer } from '../../src/server/index.js';
import { ROUTE_EGRESS } from '../../src/server/route-egress.js';
import {
  EGRESS_KEY,
  EMAIL,
  EXFIL_TEXT,
  expectNoExfil,
  expectNoRawPii,
  expectWatermark,
  LEAKY_TEXT,
  MOBILE,
  RESIDENT_ID,
} from '../support/hostile-answer.js';
import { officeTempConfig } from '../support/office-temp.js';
import { REVIEW_BAND_REQUEST } from '../support/review-band.js';

// Two servers on the office domain, each with a hostile scripted model: on `quick` the model
// leaks PII in its first turn (streamed word by word, a phone number split over three deltas) and
// tells the user to send it all outside in its second; on `deep` the planner writes PII into the
// plan and the final report.
let quick: RunningServer;
let deep: RunningServer;
const offices: ReturnType<typeof officeTempConfig>[] = [];

const KEY = (user: string) => `tw-acme-${user}-demo`;

async function call(server: RunningServer, method: string, path: string, user: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${KEY(user)}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const raw = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field.
  return { status: res.status, raw, body: JSON.parse(raw) as Record<string, any> };
}

/** POSTs a streamed request and reads the whole SSE body as a client would. */
async function sse(server: RunningServer, user: string, query: string) {
  const res = await fetch(`${server.url}/v1/requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY(user)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, stream: true, sessionId: `sse-${user}` }),
  });
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  const raw = await res.text();
  const events = raw
    .split('\n\n')
    .filter((b) => b.trim())
    .map((block) => {
      const name = /^event: (.*)$/m.exec(block)?.[1] ?? '';
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as Record<string, unknown>;
      return { name, data };
    });
  return { raw, events };
}

async function until<T>(fn: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function serve(script: unknown): Promise<RunningServer> {
  const office = officeTempConfig();
  offices.push(office);
  const file = join(office.dir, 'model.json');
  writeFileSync(file, JSON.stringify(script));
  return startServer({
    port: 0,
    config: office.configFile,
    model: `scripted:${file}`,
    env: {
      ...process.env,
      TWINLINE_DATABASE_URL: '',
      TWINLINE_REDIS_URL: '',
      TWINLINE_WATERMARK_KEY: EGRESS_KEY,
    },
    log: () => {},
  });
}

const PLAN = {
  goal: `Report for 张伟 (${MOBILE})`,
  capabilities: [],
  steps: [
    { goal: `Find the policy for ${EMAIL}`, tool: 'doc_search', args: { query: `travel ${RESIDENT_ID}` } },
  ],
};

beforeAll(async () => {
  quick = await serve([
    {
      text: LEAKY_TEXT,
      tool_calls: [{ name: 'calendar_list', arguments: { from: '2026-01-01', to: '2026-12-31' } }],
    },
    { text: EXFIL_TEXT },
  ]);
  deep = await serve([{ text: JSON.stringify(PLAN) }, { text: LEAKY_TEXT }]);
});

afterAll(async () => {
  await quick?.close();
  await deep?.close();
  for (const o of offices) o.cleanup();
});

// The server's own SSE events, beside the line and agent events it forwards.
const SERVER_EVENTS = new Set(['agent_result', 'output_blocked', 'result', 'error']);

describe('every route of the HTTP API is classified and gated', () => {
  it('the server registers exactly the routes ROUTE_EGRESS classifies', async () => {
    const auth = loadAuthFile(offices[0]!.configFile, {});
    const app = buildServer({ platform: quick.platform, auth: auth.settings, version: 'test' });
    await app.ready();
    try {
      const routes = [...new Set(registeredRoutes(app))].sort();
      expect(routes.length).toBeGreaterThan(10);
      // A route added without a line in ROUTE_EGRESS fails here, and so does a stale line.
      expect(routes).toEqual(Object.keys(ROUTE_EGRESS).sort());
    } finally {
      await app.close();
    }
  });

  it('SSE: every event an employee is sent is gated; the stream stops at the block with a gated result', async () => {
    const { raw, events } = await sse(quick, 'alice', '帮我查一下本周的日程');
    expectNoRawPii(raw, 'SSE body');
    expectNoExfil(raw, 'SSE body');
    const known = new Set([
      ...Object.keys(AGENT_EVENT_EGRESS),
      ...Object.keys(LINE_EVENT_EGRESS),
      ...SERVER_EVENTS,
    ]);
    for (const e of events) expect(known.has(e.name), `unclassified SSE event ${e.name}`).toBe(true);
    const deltas = events.filter((e) => e.name === 'text_delta');
    // The first turn's words arrived one delta each; they leave in fewer, marked pieces.
    expect(deltas.length).toBeGreaterThan(0);
    for (const d of deltas) {
      expectWatermark(
        String(d.data['text']),
        { tenant: 'acme', user: 'alice', session: 'sse-alice', channel: 'sse' },
        'delta',
      );
    }
    expect(stripWatermark(deltas.map((d) => String(d.data['text'])).join(''))).toContain('张伟');
    const names = events.map((e) => e.name);
    const blocked = names.indexOf('output_blocked');
    expect(blocked).toBeGreaterThan(0);
    // Only the main agent's closing result, the line's final and the request's result follow.
    expect(names.slice(blocked + 1)).toEqual(['agent_result', 'final', 'result']);
    const result = events.at(-1)!.data;
    expect(stripWatermark(String(result['text']))).toMatch(/^The answer was withheld by the output gate/);
    expectWatermark(
      String(result['text']),
      { user: 'alice', session: 'sse-alice', channel: 'sse' },
      'result',
    );
    // The tool the model called did run, and its result event is gated too.
    expect(names).toContain('tool_result');
  });

  it('POST /v1/requests without streaming: the answer is withheld and marked', async () => {
    const r = await call(quick, 'POST', '/v1/requests', 'alice', { query: '帮我查一下本周的日程' });
    expect(r.status).toBe(200);
    expectNoRawPii(r.raw, 'answer');
    expect(r.body.outputGate.verdict).toBe('block');
    expectWatermark(r.body.text, { user: 'alice', session: r.body.sessionId, channel: 'api' }, 'answer');
  });

  it('GET /v1/tasks/:id and /v1/tasks: a deep task’s answer, plan and steps are gated', async () => {
    const accepted = await call(deep, 'POST', '/v1/requests', 'alice', {
      query: '分析 atlas 项目的账单并生成报告',
    });
    expect(accepted.status).toBe(202);
    const taskId = accepted.body.taskId as string;
    const done = await until(async () => {
      const t = await call(deep, 'GET', `/v1/tasks/${taskId}`, 'alice');
      return t.body.task?.status === 'completed' ? t : undefined;
    });
    expectNoRawPii(done.raw, 'task detail');
    expect(stripWatermark(done.body.result)).toContain('张伟');
    expectWatermark(done.body.result, { user: 'alice', session: taskId, channel: 'api' }, 'task result');
    expect(done.body.steps[0].params.query).not.toContain(RESIDENT_ID);
    const list = await call(deep, 'GET', '/v1/tasks', 'alice');
    expectNoRawPii(list.raw, 'task list');
    // Streamed, the deep line's events (plan, steps, final) are gated as well.
    const streamed = await sse(deep, 'alice', '分析 atlas 项目的账单并生成报告');
    expectNoRawPii(streamed.raw, 'deep SSE');
    expect(streamed.events.map((e) => e.name)).toEqual(
      expect.arrayContaining(['plan', 'step_finished', 'final']),
    );
  });

  it('reviews: an input review’s approval, the review list and the audit are gated for each viewer', async () => {
    const flagged = await call(quick, 'POST', '/v1/requests', 'alice', {
      query: `${REVIEW_BAND_REQUEST} for this week`,
    });
    expect(flagged.body.outcome).toBe('review');
    const reviewId = flagged.body.reviewId as string;
    const approved = await call(quick, 'POST', `/v1/reviews/${reviewId}/approve`, 'rita', {});
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('executed');
    // rita is L3: she may see phones and e-mail, never the resident ID; the steer is withheld.
    expect(stripWatermark(approved.raw)).not.toContain(RESIDENT_ID);
    expectNoExfil(approved.raw, 'approve response');
    expect(stripWatermark(approved.body.request.text)).toMatch(/^The answer was withheld/);
    expectWatermark(approved.body.request.text, { user: 'rita', channel: 'review' }, 'approve response');

    const asRita = await call(quick, 'GET', '/v1/reviews', 'rita');
    const item = asRita.body.reviews.find((r: { id: string }) => r.id === reviewId);
    expect(item.resultSummary).toBeDefined();
    expect(stripWatermark(asRita.raw)).not.toContain(RESIDENT_ID);
    expectNoExfil(asRita.raw, 'review list');
    const asAlice = await call(quick, 'GET', '/v1/reviews', 'alice');
    expectNoRawPii(asAlice.raw, 'review list (alice)');

    await quick.platform.store.audit.flush();
    expectNoRawPii((await call(quick, 'GET', '/v1/audit', 'alice')).raw, 'audit (alice)');
    expect(stripWatermark((await call(quick, 'GET', '/v1/audit', 'rita')).raw)).not.toContain(RESIDENT_ID);
  });

  it('GET /v1/routing: a query with a phone number in it is masked for the employee reading it', async () => {
    await call(quick, 'POST', '/v1/route', 'bob', { query: `帮我查一下本周的日程，回电 ${MOBILE}` });
    const r = await call(quick, 'GET', '/v1/routing', 'alice');
    expect(r.body.decisions.length).toBeGreaterThan(0);
    expectNoRawPii(r.raw, 'routing log');
  });
});
