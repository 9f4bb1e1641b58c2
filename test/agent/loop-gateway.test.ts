import { afterEach, describe, expect, it } from 'vitest';
import { type AgentEvent, boundCallCount } from '../../src/agent/index.js';
import type { ApprovalRequest } from '../../src/gateway/index.js';
import { RECENT } from '../support/recent-dates.js';
import { type OfficeAgent, officeAgent } from './support/office-agent.js';
import { slowProbe } from './support/probe-tools.js';

let agent: OfficeAgent | undefined;
afterEach(async () => {
  await agent?.cleanup();
  agent = undefined;
});

const YEAR = RECENT;

async function drain(handle: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of handle) out.push(e);
  return out;
}

describe('agent loop through the real gateway and office tools', () => {
  it('gates and audits every proposed call, and the model sees only modelContent', async () => {
    agent = await officeAgent({
      user: 'bob',
      script: [
        {
          text: 'Looking.',
          tool_calls: [
            { name: 'sales_query', arguments: { ...YEAR, region: 'east' } },
            { name: 'billing_report_query', arguments: { project: 'atlas', quarter: '2026-Q1' } },
            { name: 'launch_missiles', arguments: {} },
            { name: 'sales_query', arguments: { from: 'yesterday', to: 3 } },
          ],
        },
        { text: 'East sales are in.' },
      ],
    });
    const handle = agent.session.run('How are east sales this year?');
    const events = await drain(handle);
    const result = await handle.result;
    expect(result.status).toBe('completed');
    expect(result.text).toBe('East sales are in.');
    expect(result.turns).toBe(2);

    const decisions = events.filter((e) => e.type === 'decision');
    expect(decisions.map((d) => [d.tool, d.status])).toEqual([
      ['sales_query', 'executed'],
      ['billing_report_query', 'denied'],
      ['launch_missiles', 'denied'],
      ['sales_query', 'denied'],
    ]);
    const byTool = decisions.map((d) => d.decision.ruleId);
    expect(byTool[2]).toBe('tool.unavailable');
    expect(decisions[3]!.decision.stage).toBe('schema');
    expect(['rbac', 'schema']).toContain(decisions[1]!.decision.stage);

    // Exactly one audit record per attempted call, with the agent and the decision path.
    const audit = await agent.audit();
    expect(audit).toHaveLength(4);
    const byId = new Map(audit.map((r) => [r.id, r]));
    for (const d of decisions) {
      expect(byId.get(d.auditId)).toMatchObject({
        tool: d.tool,
        status: d.status,
        agent: 'main',
        user: 'bob',
        tenant: 'acme',
      });
      const brief = (p: readonly { stage: string; ruleId: string; verdict: string }[]) =>
        p.map((x) => `${x.stage}:${x.ruleId}:${x.verdict}`);
      expect(brief(byId.get(d.auditId)!.decisionPath)).toEqual(brief(d.path));
    }

    // The model's next turn got exactly the gateway's modelContent for each call, in order.
    const results = events.filter((e) => e.type === 'tool_result');
    const sent = agent.provider.played;
    expect(sent).toBe(2);
    const sessionHistory = results.map((r) => r.content);
    // The sales rows, as the gateway's result stages left them (amounts tagged finance.amount).
    expect(sessionHistory[0]).toContain('"total"');
    expect(sessionHistory[2]).toBe('Tool launch_missiles is not available.');

    // Events come in a sensible order and carry the source agent.
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('turn_start');
    expect(types.at(-1)).toBe('result');
    expect(events.every((e) => e.sessionId === agent!.session.sessionId && e.agentId === 'main')).toBe(true);
    expect(types).toContain('text_delta');
    expect(types.filter((t) => t === 'tool_proposed')).toHaveLength(4);
  });

  it('sends asks to the session approver and reports approval events', async () => {
    const asked: ApprovalRequest[] = [];
    agent = await officeAgent({
      user: 'bob',
      approver: {
        async request(req) {
          asked.push(req);
          return { behavior: 'allow', message: 'ok by the host' };
        },
      },
      script: [
        {
          tool_calls: [
            {
              name: 'ticket_create',
              arguments: { title: 'Follow up east', body: 'Call back', priority: 'normal' },
            },
          ],
        },
        { text: 'Filed.' },
      ],
    });
    const handle = agent.session.run('File a ticket');
    const events = await drain(handle);
    expect((await handle.result).status).toBe('completed');
    expect(asked.map((r) => r.tool.name)).toEqual(['ticket_create']);
    expect(asked[0]!.ctx.agent?.name).toBe('main');
    expect(events.find((e) => e.type === 'approval_requested')).toMatchObject({
      tool: 'ticket_create',
      approverAgentId: 'main',
    });
    expect(events.find((e) => e.type === 'approval_answered')).toMatchObject({ behavior: 'allow' });
    const decision = events.find((e) => e.type === 'decision');
    expect(decision).toMatchObject({ status: 'executed' });
    if (decision?.type === 'decision') {
      expect(decision.path.map((p) => p.stage)).toContain('approval');
    }
  });

  it('without an approver an ask ends the call without running it', async () => {
    agent = await officeAgent({
      user: 'bob',
      script: [
        {
          tool_calls: [
            {
              name: 'ticket_create',
              arguments: { title: 'Follow up', body: 'Call back', priority: 'normal' },
            },
          ],
        },
        { text: 'Could not file.' },
      ],
    });
    const handle = agent.session.run('File a ticket');
    const events = await drain(handle);
    expect(events.find((e) => e.type === 'decision')).toMatchObject({ status: 'ask' });
    expect((await agent.audit()).map((r) => r.status)).toEqual(['ask']);
  });

  it('interrupts mid-tool: the tool sees the abort, the run ends interrupted, the session stays usable', async () => {
    const probe = slowProbe();
    agent = await officeAgent({
      user: 'bob',
      extraTools: [probe.tool],
      script: [
        {
          tool_calls: [
            { name: 'slow_probe', arguments: { label: 'long' } },
            { name: 'calendar_list', arguments: YEAR },
          ],
        },
        { text: 'Answer to the second request.' },
      ],
    });
    const first = agent.session.run('Do the long thing');
    const events: AgentEvent[] = [];
    const consumed = (async () => {
      for await (const e of first) events.push(e);
    })();
    await probe.started();
    agent.session.interrupt();
    const r1 = await first.result;
    await consumed;
    expect(r1.status).toBe('interrupted');
    expect(probe.aborted).toEqual(['long']);
    expect(events.find((e) => e.type === 'decision')).toMatchObject({
      tool: 'slow_probe',
      status: 'cancelled',
    });
    // The second call of the turn was never attempted, so never audited.
    expect((await agent.audit()).map((r) => [r.tool, r.status])).toEqual([['slow_probe', 'cancelled']]);
    expect(events.at(-1)).toMatchObject({ type: 'result', status: 'interrupted' });

    const r2 = await agent.session.run('Something else').result;
    expect(r2).toMatchObject({ status: 'completed', text: 'Answer to the second request.' });
    await agent.session.idle();
    expect(agent.session.tracker.pending()).toEqual({ timers: [], promises: [] });
    expect(boundCallCount()).toBe(0);
  });

  it('interrupts a model turn in flight (the provider request is cancelled)', async () => {
    agent = await officeAgent({ script: [{ text: 'never', delay_ms: 60_000 }, { text: 'later' }] });
    const seen = new Promise<void>((resolve) => {
      const off = agent!.session.on((e) => {
        if (e.type === 'turn_start') {
          off();
          resolve();
        }
      });
    });
    const h = agent.session.run('hi');
    await seen;
    h.interrupt();
    expect((await h.result).status).toBe('interrupted');
    expect((await agent.session.run('again').result).text).toBe('later');
  });

  it('runs concurrency-safe calls of one turn in parallel and others one at a time', async () => {
    const a = slowProbe('probe_parallel', { concurrencySafe: true, releaseAfterMs: 30 });
    const b = slowProbe('probe_serial', { releaseAfterMs: 5 });
    agent = await officeAgent({
      extraTools: [a.tool, b.tool],
      script: [
        {
          tool_calls: [
            { name: 'probe_parallel', arguments: { label: '1' } },
            { name: 'probe_parallel', arguments: { label: '2' } },
            { name: 'probe_parallel', arguments: { label: '3' } },
            { name: 'probe_serial', arguments: { label: '4' } },
            { name: 'probe_serial', arguments: { label: '5' } },
          ],
        },
        { text: 'done' },
      ],
    });
    const r = await agent.session.run('go').result;
    expect(r.status).toBe('completed');
    expect(a.maxConcurrent()).toBe(3);
    expect(b.maxConcurrent()).toBe(1);
  });

  it('stops at maxTurns and at the token budget', async () => {
    const loopCall = { tool_calls: [{ name: 'calendar_list', arguments: YEAR }] };
    agent = await officeAgent({ script: [loopCall, loopCall, loopCall, loopCall], limits: { maxTurns: 2 } });
    expect((await agent.session.run('loop').result).status).toBe('max_turns');
    await agent.cleanup();
    agent = await officeAgent({
      script: [
        { ...loopCall, usage: { input_tokens: 600, output_tokens: 500 } },
        { ...loopCall, usage: { input_tokens: 10, output_tokens: 10 } },
      ],
      limits: { maxTokens: 1000 },
    });
    const r = await agent.session.run('loop').result;
    expect(r.status).toBe('budget_exceeded');
    expect(r.turns).toBe(1);
  });

  it('a model failure is a result with status error, and the session stays usable', async () => {
    agent = await officeAgent({ script: [] });
    const handle = agent.session.run('hi');
    const events = await drain(handle);
    const r = await handle.result;
    expect(r.status).toBe('error');
    expect(r.error?.code).toBe('agent.script_exhausted');
    expect(events.some((e) => e.type === 'error')).toBe(true);
  });
});

describe('session lifecycle', () => {
  it('refuses a second run while one is in flight, and any run after close', async () => {
    agent = await officeAgent({ script: [{ text: 'slow', delay_ms: 60_000 }, { text: 'next' }] });
    const first = agent.session.run('one');
    expect(() => agent!.session.run('two')).toThrow(/already in progress/);
    first.interrupt();
    expect((await first.result).status).toBe('interrupted');
    expect((await agent.session.run('two').result).text).toBe('next');
    await agent.session.close();
    expect(() => agent!.session.run('three')).toThrow(/closed/);
  });
});

describe('runs without an event stream', () => {
  it('deliver their result and listener events, and refuse to be iterated', async () => {
    agent = await officeAgent({
      script: [{ tool_calls: [{ name: 'calendar_list', arguments: YEAR }] }, { text: 'ok' }],
    });
    const seen: string[] = [];
    agent.session.on((e) => seen.push(e.type));
    const handle = agent.session.run('hi', { stream: false });
    expect(() => handle[Symbol.asyncIterator]()).toThrow(/without an event stream/);
    const r = await handle.result;
    expect(r.text).toBe('ok');
    expect(seen).toContain('decision');
    expect(seen.at(-1)).toBe('result');
  });

  it('are cancelled by closing the session', async () => {
    agent = await officeAgent({ script: [{ text: 'slow', delay_ms: 60_000 }] });
    const handle = agent.session.run('one', { stream: false });
    await agent.session.close();
    expect((await handle.result).status).toBe('interrupted');
  });
});
