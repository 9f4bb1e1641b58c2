import { describe, expect, it } from 'vitest';
import {
  AGENT_EVENT_EGRESS,
  type AgentEvent,
  AgentEventEgress,
  type AgentEventType,
  type GatedAgentEvent,
  ScriptedProvider,
} from '../../src/agent/index.js';
import { Egress, stripWatermark } from '../../src/gates/index.js';
import {
  type GatedLineEvent,
  LINE_EVENT_EGRESS,
  type LineEvent,
  LineEventEgress,
} from '../../src/lines/index.js';
import { createPlatform } from '../../src/platform/index.js';
import { officePerTest } from '../lines/office-per-test.js';
import {
  EGRESS_KEY,
  EXFIL_TEXT,
  expectNoExfil,
  expectNoRawPii,
  expectWatermark,
  LEAKY_TEXT,
} from '../support/hostile-answer.js';

const { office, closeAfter } = officePerTest();
const SRC = { sessionId: 'sess-1', agentId: 'main', agent: 'main', depth: 0 };
const USAGE = { inputTokens: 1, outputTokens: 1 };
const DECISION = { verdict: 'deny' as const, stage: 'policy', ruleId: 'r', reason: `because ${LEAKY_TEXT}` };

/**
 * One event of every agent event type, with hostile text in every field that can carry it. Typed
 * by the event union: a new event type does not compile until it has a sample here (and an
 * entry in AGENT_EVENT_EGRESS, which the event egress's exhaustive switch also needs).
 */
const AGENT_SAMPLES: { readonly [K in AgentEventType]: Extract<AgentEvent, { type: K }> } = {
  turn_start: { ...SRC, type: 'turn_start', turn: 1 },
  turn_end: { ...SRC, type: 'turn_end', turn: 1, usage: USAGE },
  text_delta: { ...SRC, type: 'text_delta', text: LEAKY_TEXT },
  retry: { ...SRC, type: 'retry', attempt: 1, delayMs: 10, status: 429 },
  tool_proposed: {
    ...SRC,
    type: 'tool_proposed',
    callId: 'c1',
    tool: 'ticket_create',
    arguments: { title: LEAKY_TEXT, body: { note: EXFIL_TEXT } },
  },
  decision: {
    ...SRC,
    type: 'decision',
    callId: 'c1',
    tool: 'ticket_create',
    status: 'denied',
    decision: DECISION,
    path: [DECISION],
    auditId: 'a1',
  },
  tool_result: {
    ...SRC,
    type: 'tool_result',
    callId: 'c1',
    tool: 't',
    status: 'executed',
    content: LEAKY_TEXT,
    durationMs: 1,
  },
  approval_requested: {
    ...SRC,
    type: 'approval_requested',
    callId: 'c1',
    tool: 't',
    reason: `ask: ${LEAKY_TEXT}`,
    approverAgentId: 'main',
  },
  approval_answered: {
    ...SRC,
    type: 'approval_answered',
    callId: 'c1',
    tool: 't',
    behavior: 'deny',
    message: LEAKY_TEXT,
  },
  subagent_started: {
    ...SRC,
    type: 'subagent_started',
    childId: 'main/x-1',
    child: 'x',
    mode: 'foreground',
    approvalMode: 'default',
    tools: ['doc_search'],
  },
  subagent_finished: {
    ...SRC,
    type: 'subagent_finished',
    childId: 'main/x-1',
    child: 'x',
    mode: 'foreground',
    status: 'completed',
    text: LEAKY_TEXT,
  },
  message: { ...SRC, type: 'message', from: 'main', to: 'x', text: LEAKY_TEXT },
  error: { ...SRC, type: 'error', code: 'tool.failed', message: LEAKY_TEXT },
  result: {
    ...SRC,
    type: 'result',
    status: 'completed',
    text: LEAKY_TEXT,
    turns: 1,
    usage: USAGE,
    durationMs: 5,
  },
};

/** One event of every line event type, with hostile text wherever it can be. Typed like the above. */
const LINE_SAMPLES: { readonly [K in LineEvent['type']]: Extract<LineEvent, { type: K }> } = {
  routed: { type: 'routed', target: 'quick', scores: { deep: 0.1, quick: 0.9 }, rule: null },
  input_flagged: { type: 'input_flagged', verdict: 'review', score: 0.6, reviewId: 'r1' },
  task_accepted: { type: 'task_accepted', taskId: 't1', position: 0, estimatedStartMs: 0 },
  plan: {
    type: 'plan',
    taskId: 't1',
    capabilities: [],
    steps: [{ stepNo: 1, goal: LEAKY_TEXT, tool: 'doc_search' }],
  },
  step_started: { type: 'step_started', taskId: 't1', stepNo: 1, tool: 'doc_search', goal: LEAKY_TEXT },
  step_finished: {
    type: 'step_finished',
    taskId: 't1',
    stepNo: 1,
    tool: 'doc_search',
    status: 'done',
    summary: LEAKY_TEXT,
  },
  agent: { type: 'agent', event: AGENT_SAMPLES.result },
  degraded: { type: 'degraded', reason: LEAKY_TEXT, ticketId: 'k1' },
  final: { type: 'final', outcome: 'completed', text: LEAKY_TEXT, executed: [], denied: [] },
};

const gate = () =>
  new Egress({ watermarkKey: EGRESS_KEY }).for({
    viewer: { tenant: 'acme', user: 'alice', dataLevel: 'L1' },
    sessionId: 'sess-1',
    channel: 'sse',
  });

describe('every agent and line event type is classified and gated', () => {
  it('the tables list exactly the event types of the unions', () => {
    expect(Object.keys(AGENT_EVENT_EGRESS).sort()).toEqual(Object.keys(AGENT_SAMPLES).sort());
    expect(Object.keys(LINE_EVENT_EGRESS).sort()).toEqual(Object.keys(LINE_SAMPLES).sort());
  });

  for (const [type, rule] of Object.entries(AGENT_EVENT_EGRESS)) {
    it(`agent event ${type} (${rule.how})`, () => {
      const out: GatedAgentEvent[] = [];
      const egress = new AgentEventEgress(gate(), (e) => out.push(e));
      egress.accept(AGENT_SAMPLES[type as AgentEventType]);
      egress.end();
      expect(out.length).toBeGreaterThan(0);
      const bytes = JSON.stringify(out);
      expectNoRawPii(bytes, type);
      expectNoExfil(bytes, type);
      if (rule.how === 'text' || rule.how === 'stream') {
        for (const field of rule.fields) {
          const text = out
            .map((e) => String((e as unknown as Record<string, unknown>)[field] ?? ''))
            .join('');
          expectWatermark(text, { user: 'alice', session: 'sess-1', channel: 'sse' }, `${type}.${field}`);
        }
      }
    });
  }

  for (const [type, rule] of Object.entries(LINE_EVENT_EGRESS)) {
    it(`line event ${type} (${rule.how})`, () => {
      const out: GatedLineEvent[] = [];
      const egress = new LineEventEgress(gate(), (e) => out.push(e));
      egress.accept(LINE_SAMPLES[type as LineEvent['type']]);
      egress.end();
      const bytes = JSON.stringify(out);
      expectNoRawPii(bytes, type);
      if (rule.how === 'text') {
        for (const field of rule.fields) {
          const text = String((out[0] as Record<string, unknown>)[field]);
          expectWatermark(text, { user: 'alice', channel: 'sse' }, `${type}.${field}`);
        }
      }
    });
  }

  it('after a blocked stream only the closing result of the main agent leaves', () => {
    const out: GatedAgentEvent[] = [];
    const egress = new AgentEventEgress(gate(), (e) => out.push(e));
    for (const w of EXFIL_TEXT.split(/(?<= )/)) egress.accept({ ...SRC, type: 'text_delta', text: w });
    egress.accept(AGENT_SAMPLES.turn_end);
    for (const t of Object.keys(AGENT_SAMPLES) as AgentEventType[]) {
      if (t !== 'result') egress.accept(AGENT_SAMPLES[t]);
    }
    egress.accept({ ...AGENT_SAMPLES.result, text: EXFIL_TEXT });
    const types = out.map((e) => e.type);
    const at = types.indexOf('output_blocked');
    expect(at).toBeGreaterThanOrEqual(0);
    expect(types.slice(at + 1)).toEqual(['result']);
    expectNoExfil(JSON.stringify(out), 'after block');
    expect(stripWatermark((out.at(-1) as { text: string }).text)).toMatch(/^The answer was withheld/);
  });
});

describe('the library door: platform.handle with emit', () => {
  it('sends every event and the answer gated for the requester, and stops the stream at the block', async () => {
    const o = office();
    const p = closeAfter(
      await createPlatform(o.config, { env: { TWINLINE_WATERMARK_KEY: EGRESS_KEY }, quickQps: 1000 }),
    );
    const alice = p.runtime.identities.resolve('alice', 'acme');
    const provider = new ScriptedProvider([
      {
        text: LEAKY_TEXT,
        tool_calls: [{ name: 'calendar_list', arguments: { from: '2026-01-01', to: '2026-12-31' } }],
      },
      { text: EXFIL_TEXT },
    ]);
    const events: GatedLineEvent[] = [];
    const result = await p.handle(alice, '帮我查一下本周的日程', {
      provider,
      sessionId: 'lib-1',
      emit: (e) => events.push(e),
    });
    const bytes = JSON.stringify(events) + JSON.stringify(result);
    expectNoRawPii(bytes, 'library door');
    expectNoExfil(bytes, 'library door');
    const agent = events.flatMap((e) => (e.type === 'agent' ? [e.event] : []));
    const deltas = agent.filter((e) => e.type === 'text_delta').map((e) => (e as { text: string }).text);
    expect(deltas.length).toBeGreaterThan(0);
    for (const d of deltas) expectWatermark(d, { user: 'alice', session: 'lib-1', channel: 'api' }, 'delta');
    const blockedAt = agent.findIndex((e) => e.type === 'output_blocked');
    expect(blockedAt).toBeGreaterThan(0);
    expect(agent.slice(blockedAt + 1).map((e) => e.type)).toEqual(['result']);
    expect(events.at(-1)?.type).toBe('final');
    expect(result.outputGate.verdict).toBe('block');
    expectWatermark(result.text, { user: 'alice', session: 'lib-1', channel: 'api' }, 'result');
  });
});
