import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { tracingWith } from '../../src/telemetry/index.js';
import { RECENT } from '../support/recent-dates.js';
import { serveScripted } from '../support/scripted-server.js';

/** The office demo's operator key for /metrics (examples/office/auth.yaml). */
const METRICS_AUTH = { headers: { authorization: 'Bearer tw-metrics-demo' } };

// The span tree of one quick and one deep request through `twinline serve`, exported to memory:
// ingress → request → input gate, route, line → model calls and tool calls (one child per
// gateway stage and one for the execution) → output gate, with GenAI attribute names and no
// argument values anywhere.

const exporter = new InMemorySpanExporter();
const cleanups: (() => void)[] = [];
let quick: RunningServer;
let deep: RunningServer;
let denying: RunningServer;

async function serve(script: unknown): Promise<RunningServer> {
  const { server, cleanup } = await serveScripted(script, {
    tracing: await tracingWith([new SimpleSpanProcessor(exporter)]),
  });
  cleanups.push(cleanup);
  return server;
}

const QUICK_ARGS = { from: RECENT.from, to: RECENT.to };
const DEEP_QUERY = '分析 atlas 项目的账单并生成报告';

beforeAll(async () => {
  quick = await serve([
    { tool_calls: [{ name: 'calendar_list', arguments: QUICK_ARGS }] },
    { text: 'You have three meetings this week.' },
  ]);
  deep = await serve([
    {
      text: JSON.stringify({
        goal: 'Travel policy',
        capabilities: [],
        steps: [
          { goal: 'Find the travel policy', tool: 'doc_search', args: { query: 'travel reimbursement' } },
        ],
      }),
    },
    { text: 'The travel policy allows economy class.' },
  ]);
  // A model that asks the quick line for a tool only the deep line has.
  denying = await serve([
    { tool_calls: [{ name: 'salary_analysis', arguments: { departments: ['rd'] } }] },
    { text: 'I cannot do that here.' },
  ]);
});

afterAll(async () => {
  await quick?.close();
  await deep?.close();
  await denying?.close();
  for (const c of cleanups) c();
});

interface Node {
  readonly span: ReadableSpan;
  readonly children: Node[];
}

/** The spans of one trace as a tree (children in start order). */
function tree(traceId: string): Node {
  const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
  const nodes = new Map(spans.map((s) => [s.spanContext().spanId, { span: s, children: [] as Node[] }]));
  let root: Node | undefined;
  for (const n of nodes.values()) {
    const parent = n.span.parentSpanContext?.spanId;
    const p = parent ? nodes.get(parent) : undefined;
    if (p) p.children.push(n);
    else root = n;
  }
  const order = (n: Node) => {
    n.children.sort((a, b) => hr(a.span.startTime) - hr(b.span.startTime));
    n.children.forEach(order);
  };
  order(root!);
  return root!;
}

const hr = (t: [number, number]) => t[0] * 1e9 + t[1];
const names = (n: Node) => n.children.map((c) => c.span.name);
const child = (n: Node, name: string | RegExp) => {
  const c = n.children.find((x) =>
    typeof name === 'string' ? x.span.name === name : name.test(x.span.name),
  );
  if (!c) throw new Error(`no child ${name} under ${n.span.name}: ${names(n).join(', ')}`);
  return c;
};

async function request(server: RunningServer, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/v1/requests`, {
    method: 'POST',
    headers: { authorization: 'Bearer tw-acme-alice-demo', 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { outcome: string; route: { target: string } } };
}

/** Every attribute value of every span of a trace, as text. */
function attributeValues(traceId: string): string[] {
  return exporter
    .getFinishedSpans()
    .filter((s) => s.spanContext().traceId === traceId)
    .flatMap((s) => Object.values(s.attributes).flat().map(String));
}

/** Waits until the ingress span of a trace has ended (it ends when the response closes). */
async function ingress(traceId: string): Promise<Node> {
  for (let i = 0; i < 200; i++) {
    const done = exporter
      .getFinishedSpans()
      .some((s) => s.spanContext().traceId === traceId && s.name === 'POST /v1/requests');
    if (done) return tree(traceId);
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the ingress span never ended');
}

describe('traces of a request, end to end (in-memory exporter)', () => {
  it('quick line: ingress → request → input gate, route, invoke_agent → chat, execute_tool → stages, execute → output gate', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const r = await request(
      quick,
      { query: '查一下这周的日程安排' },
      { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    );
    expect(r.body.outcome).toBe('completed');
    const root = await ingress(traceId);
    // The ingress span joins the caller's trace under the caller's span.
    expect(root.span.name).toBe('POST /v1/requests');
    expect(root.span.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(root.span.kind).toBe(1); // SERVER
    expect(root.span.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v1/requests',
      'http.response.status_code': 200,
      'twinline.tenant': 'acme',
    });
    const req = child(root, 'twinline.request');
    expect(names(req)).toEqual([
      'twinline.route',
      'twinline.input_gate',
      'invoke_agent quick',
      'twinline.output_gate',
    ]);
    expect(child(req, 'twinline.input_gate').span.attributes).toMatchObject({
      'twinline.decision': 'allow',
      'twinline.rule_id': 'input.pass',
    });
    expect(child(req, 'twinline.route').span.attributes['twinline.route.target']).toBe('quick');
    expect(child(req, 'twinline.output_gate').span.attributes['twinline.output.verdict']).toBeDefined();

    const agent = child(req, 'invoke_agent quick');
    expect(agent.span.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'quick',
    });
    expect(names(agent).map((n) => n.split(' ')[0])).toEqual(['chat', 'execute_tool', 'chat']);
    const chat = agent.children[0]!;
    expect(chat.span.kind).toBe(2); // CLIENT
    expect(chat.span.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'scripted',
    });
    expect(chat.span.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(chat.span.attributes['gen_ai.response.finish_reasons']).toEqual(['tool_calls']);

    const tool = child(agent, 'execute_tool calendar_list');
    expect(tool.span.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'calendar_list',
      'gen_ai.tool.type': 'function',
      'twinline.tenant': 'acme',
      'twinline.line': 'quick',
      'twinline.status': 'executed',
      'twinline.decision': 'allow',
      'twinline.decided_by': expect.stringMatching(/^policy\//),
    });
    // One child per stage, in the order the serve.quick profile runs them, then the execution and
    // the result transforms.
    expect(names(tool)).toEqual([
      'twinline.stage access',
      'twinline.stage schema',
      'twinline.stage policy',
      'twinline.stage parameters',
      'twinline.stage intent',
      'twinline.stage review',
      'twinline.stage resilience',
      'twinline.stage breaker',
      'twinline.execute calendar_list',
      'twinline.stage result.quote',
      'twinline.stage result.redact',
      'twinline.stage result.fact',
    ]);
    expect(child(tool, 'twinline.stage policy').span.attributes).toMatchObject({
      'twinline.decision': 'allow',
      'twinline.stage': 'policy',
    });

    // Never an argument value, a prompt or an answer in any attribute.
    const values = attributeValues(traceId);
    for (const secret of [QUICK_ARGS.from, QUICK_ARGS.to, '日程', 'three meetings'])
      expect(
        values.some((v) => v.includes(secret)),
        secret,
      ).toBe(false);
  });

  it('deep line: the line span holds the planner’s model calls and each step’s tool call with its stages', async () => {
    const r = await request(deep, { query: DEEP_QUERY, wait: true });
    expect(r.status).toBe(200);
    expect(r.body.route.target).toBe('deep');
    const span = exporter
      .getFinishedSpans()
      .find((s) => s.name === 'twinline.line deep' && s.attributes['twinline.outcome'] === 'completed');
    expect(span).toBeDefined();
    const root = await ingress(span!.spanContext().traceId);
    const req = child(root, 'twinline.request');
    expect(names(req)).toEqual([
      'twinline.route',
      'twinline.input_gate',
      'twinline.line deep',
      'twinline.output_gate',
    ]);
    const line = child(req, 'twinline.line deep');
    expect(line.span.attributes['twinline.task.id']).toMatch(/[0-9a-f-]{36}/);
    expect(line.span.attributes['twinline.queue.wait_ms']).toBeGreaterThanOrEqual(0);
    expect(names(line).map((n) => n.split(' ')[0])).toEqual(['chat', 'execute_tool', 'chat']);
    const tool = child(line, 'execute_tool doc_search');
    expect(tool.span.attributes['twinline.line']).toBe('deep');
    expect(tool.span.attributes['twinline.task.id']).toBe(line.span.attributes['twinline.task.id']);
    expect(names(tool)).toEqual([
      'twinline.stage access',
      'twinline.stage schema',
      'twinline.stage policy',
      'twinline.stage parameters',
      'twinline.stage intent',
      'twinline.stage review',
      'twinline.stage breaker',
      'twinline.execute doc_search',
      'twinline.stage result.quote',
      'twinline.stage result.redact',
      'twinline.stage result.fact',
    ]);
    const values = attributeValues(root.span.spanContext().traceId);
    for (const secret of ['travel reimbursement', DEEP_QUERY, 'economy class'])
      expect(
        values.some((v) => v.includes(secret)),
        secret,
      ).toBe(false);
  });

  it('a refused call ends its tool span with the deciding stage and rule', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    await request(
      denying,
      { query: '查一下这周的日程安排' },
      { traceparent: `00-${traceId}-b7ad6b7169203331-01` },
    );
    const root = await ingress(traceId);
    const agent = child(child(root, 'twinline.request'), 'invoke_agent quick');
    const tool = child(agent, 'execute_tool salary_analysis');
    expect(tool.span.attributes).toMatchObject({
      'twinline.status': 'denied',
      'twinline.decision': 'deny',
      'twinline.stage': 'access',
      'twinline.rule_id': 'tool.unavailable',
      'twinline.decided_by': 'access/tool.unavailable',
    });
    // A tool the line does not have never reaches a stage.
    expect(names(tool)).toEqual([]);
    // And its name — the model's text — never becomes a metric label.
    const metrics = await (await fetch(`${denying.url}/metrics`, METRICS_AUTH)).text();
    expect(metrics).toMatch(
      /twinline_tool_calls_total\{tool="\(unavailable\)",status="denied",domain="quick"\} 1/,
    );
    expect(metrics).not.toContain('tool="salary_analysis"');
  });
});
