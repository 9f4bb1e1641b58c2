import { afterEach, describe, expect, it } from 'vitest';
import {
  type AgentAccess,
  type AgentEvent,
  boundCallCount,
  createAccessPort,
  type SubagentDefinition,
} from '../../src/agent/index.js';
import type { ApprovalRequest } from '../../src/gateway/index.js';
import { RECENT } from '../support/recent-dates.js';
import { type OfficeAgent, type OfficeAgentOptions, officeAgent } from './support/office-agent.js';
import { slowProbe } from './support/probe-tools.js';

let agent: OfficeAgent | undefined;
afterEach(async () => {
  await agent?.cleanup();
  agent = undefined;
});

const YEAR = RECENT;

function def(name: string, extra: Partial<SubagentDefinition> = {}): SubagentDefinition {
  return { name, description: `${name} agent`, systemPrompt: `You are ${name}.`, ...extra };
}

/**
 * Sessions start in auto-edit: the host lets the main agent spawn agents without a prompt, while
 * domain writes still ask (so bubble and background denials are exercised). The folder is trusted
 * so children may inherit auto-edit.
 */
async function start(opts: OfficeAgentOptions): Promise<{ agent: OfficeAgent; events: AgentEvent[] }> {
  agent = await officeAgent({ approvalMode: 'auto-edit', trustedFolder: true, ...opts });
  const events: AgentEvent[] = [];
  agent.session.on((e) => events.push(e));
  return { agent, events };
}

function decisionsOf(events: AgentEvent[], agentName: string) {
  return events.filter((e) => e.type === 'decision' && e.agent === agentName) as Extract<
    AgentEvent,
    { type: 'decision' }
  >[];
}

/** A buggy access layer: grants ask_user to every agent. The tool's own check must still hold. */
function leakyAccess(): AgentAccess {
  const real = createAccessPort();
  return {
    ...real,
    grant(frame, available, trusted) {
      const g = real.grant(frame, available, trusted);
      return { ...g, tools: new Set([...g.tools, 'ask_user']) };
    },
  };
}

describe('sub-agents', () => {
  const backgroundAsk = (extra: Partial<OfficeAgentOptions> = {}): OfficeAgentOptions => ({
    definitions: [def('scout')],
    userQuestion: async () => {
      throw new Error('a background agent must never reach the user');
    },
    script: {
      turns: [
        {
          tool_calls: [
            { name: 'agent', arguments: { agent: 'scout', prompt: 'look around', mode: 'background' } },
          ],
        },
        { tool_calls: [{ name: 'task_output', arguments: { task_id: 'bg-1', block: true } }] },
        { text: 'done' },
      ],
      agents: {
        scout: [
          { tool_calls: [{ name: 'ask_user', arguments: { question: 'which region?' } }] },
          { text: 'no answer' },
        ],
      },
    },
    ...extra,
  });

  it('a background agent cannot see ask_user (access layer), so its call is refused as unavailable', async () => {
    const { agent: a, events } = await start(backgroundAsk());
    const r = await a.session.run('go').result;
    expect(r.status).toBe('completed');
    const scout = decisionsOf(events, 'scout');
    expect(scout.map((d) => [d.tool, d.status, d.decision.ruleId])).toEqual([
      ['ask_user', 'denied', 'tool.unavailable'],
    ]);
    const started = events.find((e) => e.type === 'subagent_started');
    expect(started?.type === 'subagent_started' && started.tools).not.toContain('ask_user');
  });

  it('even if a bug lets ask_user through, a background caller gets a typed error at execution', async () => {
    const { agent: a, events } = await start(backgroundAsk({ access: leakyAccess() }));
    const r = await a.session.run('go').result;
    expect(r.status).toBe('completed');
    const [d] = decisionsOf(events, 'scout');
    expect(d).toMatchObject({ tool: 'ask_user', status: 'failed' });
    const audit = await a.audit();
    const rec = audit.find((x) => x.tool === 'ask_user');
    expect(rec).toMatchObject({ agent: 'scout', status: 'failed' });
    expect(rec!.resultSummary).toContain('access.interactive-caller');
    // The coordinator read the background result through task_output.
    const out = decisionsOf(events, 'main').find((x) => x.tool === 'task_output');
    expect(out?.status).toBe('executed');
  });

  it('the main agent can ask the user', async () => {
    const asked: string[] = [];
    const { agent: a, events } = await start({
      userQuestion: async (q) => {
        asked.push(q.question);
        return 'east';
      },
      script: [
        { tool_calls: [{ name: 'ask_user', arguments: { question: 'Which region?' } }] },
        { text: 'ok' },
      ],
    });
    await a.session.run('go').result;
    expect(asked).toEqual(['Which region?']);
    const res = events.find((e) => e.type === 'tool_result');
    expect(res?.type === 'tool_result' && res.content).toContain('east');
  });

  it('a teammate creates and updates a shared task and messages the coordinator', async () => {
    const { agent: a, events } = await start({
      definitions: [def('helper')],
      script: {
        turns: [
          {
            tool_calls: [
              { name: 'agent', arguments: { agent: 'helper', prompt: 'track the review', mode: 'teammate' } },
            ],
          },
          { tool_calls: [{ name: 'task_output', arguments: { task_id: 'bg-1', block: true } }] },
          { tool_calls: [{ name: 'task_list', arguments: {} }] },
          { text: 'All tracked.' },
        ],
        agents: {
          helper: [
            {
              tool_calls: [
                { name: 'task_create', arguments: { subject: 'Review east pipeline', owner: 'helper' } },
              ],
            },
            {
              tool_calls: [
                {
                  name: 'task_update',
                  arguments: { task_id: 'task-1', status: 'completed', result: 'pipeline ok' },
                },
              ],
            },
            {
              tool_calls: [
                { name: 'send_message', arguments: { to: 'coordinator', text: 'task-1 is done' } },
              ],
            },
            { text: 'finished' },
          ],
        },
      },
    });
    const r = await a.session.run('coordinate').result;
    expect(r).toMatchObject({ status: 'completed', text: 'All tracked.' });
    const [task] = a.session.board.list();
    expect(task).toMatchObject({
      id: 'task-1',
      subject: 'Review east pipeline',
      status: 'completed',
      result: 'pipeline ok',
    });
    expect(task!.createdBy).toBe('main/helper-1');
    expect(task!.updatedBy).toBe('main/helper-1');
    expect(events.find((e) => e.type === 'message')).toMatchObject({
      from: 'main/helper-1',
      to: 'main',
      text: 'task-1 is done',
    });
    // Every helper call went through the gateway and was executed.
    expect(decisionsOf(events, 'helper').map((d) => [d.tool, d.status])).toEqual([
      ['task_create', 'executed'],
      ['task_update', 'executed'],
      ['send_message', 'executed'],
    ]);
    // The coordinator saw the task board through its own task_list call.
    const list = events.filter(
      (e) => e.type === 'tool_result' && e.agent === 'main' && e.tool === 'task_list',
    );
    expect(list[0]?.type === 'tool_result' && list[0].content).toContain('pipeline ok');
    const started = events.find((e) => e.type === 'subagent_started');
    expect(started).toMatchObject({ mode: 'teammate', child: 'helper' });
  });

  it('task_output belongs to the coordinator: a teammate cannot read or stop another job', async () => {
    const { agent: a, events } = await start({
      definitions: [def('peer')],
      script: {
        turns: [
          { tool_calls: [{ name: 'agent', arguments: { agent: 'peer', prompt: 'p', mode: 'teammate' } }] },
          { tool_calls: [{ name: 'task_output', arguments: { task_id: 'bg-1', block: true } }] },
          { text: 'ok' },
        ],
        agents: {
          peer: [{ tool_calls: [{ name: 'task_output', arguments: { task_id: 'bg-1' } }] }, { text: 'x' }],
        },
      },
    });
    await a.session.run('go').result;
    expect(decisionsOf(events, 'peer')[0]).toMatchObject({ tool: 'task_output', status: 'denied' });
  });

  it('a child never gets a tool its parent lacks, whatever its definition or a buggy resolver says', async () => {
    const real = createAccessPort();
    const everything: AgentAccess = {
      ...real,
      grant(frame, available, trusted) {
        const g = real.grant(frame, available, trusted);
        // Buggy below depth 1: ignores the parent and hands out every registered tool.
        return frame.ref.depth >= 2 ? { ...g, tools: new Set(available.map((t) => t.name)) } : g;
      },
    };
    const { agent: a, events } = await start({
      access: everything,
      definitions: [
        def('analyst', { tools: ['sales_query', 'agent'] }),
        def('writer', { tools: ['sales_query', 'ticket_create', 'calendar_list'] }),
      ],
      script: {
        turns: [
          { tool_calls: [{ name: 'agent', arguments: { agent: 'analyst', prompt: 'analyse' } }] },
          { text: 'ok' },
        ],
        agents: {
          analyst: [
            { tool_calls: [{ name: 'agent', arguments: { agent: 'writer', prompt: 'write' } }] },
            { text: 'a' },
          ],
          writer: [
            {
              tool_calls: [
                { name: 'ticket_create', arguments: { title: 'Sneaky', body: 'b', priority: 'normal' } },
              ],
            },
            { text: 'w' },
          ],
        },
      },
    });
    // With the real resolver the analyst only has what its definition lists.
    await a.session.run('go').result;
    const started = events.filter((e) => e.type === 'subagent_started') as Extract<
      AgentEvent,
      { type: 'subagent_started' }
    >[];
    const analystTools = new Set(started.find((s) => s.child === 'analyst')!.tools);
    const writerTools = started.find((s) => s.child === 'writer')!.tools;
    for (const t of writerTools) expect(analystTools.has(t)).toBe(true);
    expect(writerTools).not.toContain('ticket_create');
    expect(decisionsOf(events, 'writer')[0]).toMatchObject({ tool: 'ticket_create', status: 'denied' });
    expect(decisionsOf(events, 'writer')[0]!.decision.ruleId).toBe('tool.unavailable');
  });

  it('the real resolver narrows a child to its definition and the parent', async () => {
    const { agent: a, events } = await start({
      definitions: [
        def('reader', {
          tools: ['sales_query', 'calendar_list', 'record_delete'],
          disallowedTools: ['record_delete'],
        }),
      ],
      script: {
        turns: [
          { tool_calls: [{ name: 'agent', arguments: { agent: 'reader', prompt: 'read' } }] },
          { text: 'ok' },
        ],
        agents: {
          reader: [
            {
              tool_calls: [
                { name: 'calendar_list', arguments: YEAR },
                { name: 'ticket_create', arguments: { title: 'Nope', body: 'b', priority: 'normal' } },
              ],
            },
            { text: 'read it' },
          ],
        },
      },
    });
    const r = await a.session.run('go').result;
    expect(r.status).toBe('completed');
    const started = events.find((e) => e.type === 'subagent_started');
    expect(started?.type === 'subagent_started' && [...started.tools].sort()).toEqual([
      'calendar_list',
      'sales_query',
    ]);
    expect(decisionsOf(events, 'reader').map((d) => [d.tool, d.status])).toEqual([
      ['calendar_list', 'executed'],
      ['ticket_create', 'denied'],
    ]);
    const fin = events.find((e) => e.type === 'subagent_finished');
    expect(fin).toMatchObject({ status: 'completed', text: 'read it', mode: 'foreground' });
    const audit = await a.audit();
    expect(
      audit
        .filter((x) => x.agent === 'reader')
        .map((x) => x.tool)
        .sort(),
    ).toEqual(['calendar_list', 'ticket_create']);
  });

  it("a child's failure comes back to the parent as a result, not a crash", async () => {
    const { agent: a, events } = await start({
      definitions: [def('fragile')],
      script: {
        turns: [
          { tool_calls: [{ name: 'agent', arguments: { agent: 'fragile', prompt: 'x' } }] },
          { text: 'parent fine' },
        ],
        agents: { fragile: [] },
      },
    });
    const r = await a.session.run('go').result;
    expect(r).toMatchObject({ status: 'completed', text: 'parent fine' });
    const res = events.find((e) => e.type === 'tool_result' && e.tool === 'agent');
    expect(res?.type === 'tool_result' && res.status).toBe('executed');
    expect(res?.type === 'tool_result' && res.content).toContain('"status":"error"');
  });

  it('unknown definitions and nesting past the depth limit are refused with typed errors', async () => {
    const { agent: a, events } = await start({
      limits: { maxDepth: 1 },
      definitions: [def('nester')],
      script: {
        turns: [
          {
            tool_calls: [
              { name: 'agent', arguments: { agent: 'ghost', prompt: 'x' } },
              { name: 'agent', arguments: { agent: 'nester', prompt: 'x' } },
            ],
          },
          { text: 'ok' },
        ],
        agents: {
          nester: [
            { tool_calls: [{ name: 'agent', arguments: { agent: 'nester', prompt: 'deeper' } }] },
            { text: 'n' },
          ],
        },
      },
    });
    await a.session.run('go').result;
    const main = decisionsOf(events, 'main');
    expect(main[0]).toMatchObject({ tool: 'agent', status: 'failed' });
    const audit = await a.audit();
    expect(audit.find((x) => x.agent === 'main' && x.status === 'failed')!.resultSummary).toContain(
      'agent.unknown_definition',
    );
    const nested = audit.find((x) => x.agent === 'nester');
    expect(nested?.status === 'failed' || nested?.status === 'denied').toBe(true);
    expect(events.filter((e) => e.type === 'subagent_started')).toHaveLength(1);
  });

  it('bubble sends background approvals to the parent approver', async () => {
    const asked: ApprovalRequest[] = [];
    const { agent: a, events } = await start({
      approver: {
        async request(req) {
          asked.push(req);
          return { behavior: 'allow' };
        },
      },
      definitions: [def('filer', { approvalMode: 'bubble' })],
      script: {
        turns: [
          {
            tool_calls: [
              { name: 'agent', arguments: { agent: 'filer', prompt: 'file', mode: 'background' } },
            ],
          },
          { tool_calls: [{ name: 'task_output', arguments: { task_id: 'bg-1', block: true } }] },
          { text: 'ok' },
        ],
        agents: {
          filer: [
            {
              tool_calls: [
                { name: 'ticket_create', arguments: { title: 'Bubbled', body: 'b', priority: 'normal' } },
              ],
            },
            { text: 'filed' },
          ],
        },
      },
    });
    await a.session.run('go').result;
    expect(asked.map((r) => [r.tool.name, r.ctx.agent?.name])).toEqual([['ticket_create', 'filer']]);
    expect(events.find((e) => e.type === 'approval_requested')).toMatchObject({
      agent: 'filer',
      approverAgentId: 'main',
    });
    expect(decisionsOf(events, 'filer')[0]).toMatchObject({ status: 'executed' });
  });

  it('an unanswered bubbled approval is denied after the timeout; a non-bubble background ask is denied at once', async () => {
    const { agent: a, events } = await start({
      limits: { backgroundApprovalTimeoutMs: 50 },
      approver: {
        request: (_req, signal) =>
          new Promise((_resolve, reject) =>
            signal.addEventListener('abort', () => reject(new Error('gone'))),
          ),
      },
      definitions: [def('filer', { approvalMode: 'bubble' }), def('quiet')],
      script: {
        turns: [
          {
            tool_calls: [
              { name: 'agent', arguments: { agent: 'filer', prompt: 'file', mode: 'background' } },
              { name: 'agent', arguments: { agent: 'quiet', prompt: 'file', mode: 'background' } },
            ],
          },
          {
            tool_calls: [
              { name: 'task_output', arguments: { task_id: 'bg-1', block: true } },
              { name: 'task_output', arguments: { task_id: 'bg-2', block: true } },
            ],
          },
          { text: 'ok' },
        ],
        agents: {
          filer: [
            {
              tool_calls: [
                { name: 'ticket_create', arguments: { title: 'Waits', body: 'b', priority: 'normal' } },
              ],
            },
            { text: 'gave up' },
          ],
          quiet: [
            {
              tool_calls: [
                { name: 'ticket_create', arguments: { title: 'Never', body: 'b', priority: 'normal' } },
              ],
            },
            { text: 'gave up' },
          ],
        },
      },
    });
    const r = await a.session.run('go').result;
    expect(r.status).toBe('completed');
    const filer = decisionsOf(events, 'filer')[0]!;
    expect(filer.status).toBe('denied');
    expect(filer.decision.reason).toMatch(/within 50 ms|denied/);
    const quiet = decisionsOf(events, 'quiet')[0]!;
    expect(quiet.status).toBe('denied');
    await a.session.idle();
    expect(a.session.tracker.pending()).toEqual({ timers: [], promises: [] });
  });

  it('cancelling the parent stops the whole tree and leaves no timers or promises behind', async () => {
    const probe = slowProbe();
    const { agent: a, events } = await start({
      extraTools: [probe.tool],
      limits: { backgroundApprovalTimeoutMs: 60_000, maxWallMs: 120_000 },
      definitions: [def('sleeper'), def('worker'), def('lead')],
      script: {
        turns: [
          {
            tool_calls: [
              { name: 'agent', arguments: { agent: 'sleeper', prompt: 'wait', mode: 'background' } },
            ],
          },
          { tool_calls: [{ name: 'agent', arguments: { agent: 'lead', prompt: 'lead' } }] },
          { text: 'unreachable' },
        ],
        agents: {
          sleeper: [{ text: 'zz', delay_ms: 60_000 }],
          lead: [
            { tool_calls: [{ name: 'agent', arguments: { agent: 'worker', prompt: 'work' } }] },
            { text: 'l' },
          ],
          worker: [{ tool_calls: [{ name: 'slow_probe', arguments: { label: 'deep' } }] }, { text: 'w' }],
        },
      },
    });
    const handle = a.session.run('go');
    await probe.started();
    expect(a.session.tracker.pending().promises.length).toBeGreaterThanOrEqual(3);
    a.session.interrupt();
    const r = await handle.result;
    expect(r.status).toBe('interrupted');
    await a.session.idle();
    expect(a.session.tracker.pending()).toEqual({ timers: [], promises: [] });
    expect(boundCallCount()).toBe(0);
    expect(probe.aborted).toEqual(['deep']);
    const finished = events.filter((e) => e.type === 'subagent_finished') as Extract<
      AgentEvent,
      { type: 'subagent_finished' }
    >[];
    expect(finished.map((f) => [f.child, f.status]).sort()).toEqual([
      ['lead', 'interrupted'],
      ['sleeper', 'interrupted'],
      ['worker', 'interrupted'],
    ]);
    // The session is still usable: a next run works (the script has one turn left).
    expect((await a.session.run('again').result).text).toBe('unreachable');
  });
});
