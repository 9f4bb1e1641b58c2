import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent, SubagentDefinition } from '../../src/agent/index.js';
import { RECENT } from '../support/recent-dates.js';
import { type OfficeAgent, type OfficeAgentOptions, officeAgent } from './support/office-agent.js';

let agent: OfficeAgent | undefined;
afterEach(async () => {
  await agent?.cleanup();
  agent = undefined;
});

const YEAR = RECENT;
type Decision = Extract<AgentEvent, { type: 'decision' }>;
type ToolResult = Extract<AgentEvent, { type: 'tool_result' }>;

async function run(opts: OfficeAgentOptions, prompt = 'go') {
  agent = await officeAgent({ approvalMode: 'auto-edit', trustedFolder: true, ...opts });
  const events: AgentEvent[] = [];
  agent.session.on((e) => events.push(e));
  const result = await agent.session.run(prompt).result;
  const decisions = events.filter((e): e is Decision => e.type === 'decision');
  const results = events.filter((e): e is ToolResult => e.type === 'tool_result');
  return { result, events, decisions, results };
}

const def = (name: string, extra: Partial<SubagentDefinition> = {}): SubagentDefinition => ({
  name,
  description: name,
  systemPrompt: '',
  ...extra,
});

describe('tool_search and tool_call (the deferred-tool bridge)', () => {
  it('search only finds tools the agent may use; the bridge re-checks the target at the gateway', async () => {
    const { decisions, results } = await run({
      definitions: [def('bridger', { tools: ['tool_search', 'tool_call', 'calendar_list'] })],
      script: {
        turns: [
          { tool_calls: [{ name: 'agent', arguments: { agent: 'bridger', prompt: 'find' } }] },
          { text: 'ok' },
        ],
        agents: {
          bridger: [
            { tool_calls: [{ name: 'tool_search', arguments: { query: 'calendar sales records delete' } }] },
            {
              tool_calls: [
                { name: 'tool_call', arguments: { name: 'calendar_list', arguments: YEAR } },
                { name: 'tool_call', arguments: { name: 'sales_query', arguments: YEAR } },
                { name: 'tool_call', arguments: { name: 'tool_call', arguments: {} } },
              ],
            },
            { text: 'done' },
          ],
        },
      },
    });
    const search = results.find((r) => r.agent === 'bridger' && r.tool === 'tool_search')!;
    const found = (JSON.parse(search.content) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(found).toEqual(['calendar_list']);

    const bridged = decisions.filter((d) => d.agent === 'bridger' && d.tool !== 'tool_search');
    expect(bridged.map((d) => [d.tool, d.status])).toEqual([
      ['tool_call', 'executed'],
      ['tool_call', 'denied'],
      ['tool_call', 'denied'],
    ]);
    expect(bridged[1]!.decision.ruleId).toBe('tool.unavailable');
    expect(bridged[2]!.decision.ruleId).toBe('access.bridge-refused');
    // The target call went through the gateway again and is audited under its own name.
    const audit = await agent!.audit();
    expect(
      audit
        .filter((r) => r.agent === 'bridger')
        .map((r) => r.tool)
        .sort(),
    ).toEqual(['calendar_list', 'tool_call', 'tool_call', 'tool_call', 'tool_search']);
  });

  it('the bridge cannot launder a call past RBAC or approval', async () => {
    const { results, decisions } = await run({
      user: 'alice',
      script: [
        {
          tool_calls: [
            { name: 'tool_call', arguments: { name: 'salary_analysis', arguments: { departments: ['rd'] } } },
            {
              name: 'tool_call',
              arguments: {
                name: 'ticket_create',
                arguments: { title: 'Via bridge', body: 'b', priority: 'normal' },
              },
            },
          ],
        },
        { text: 'ok' },
      ],
    });
    const inner = decisions.filter((d) => d.tool !== 'tool_call');
    expect(inner).toHaveLength(0);
    const outer = decisions.filter((d) => d.tool === 'tool_call');
    // salary_analysis: the inner call is refused by RBAC; ticket_create: approval asks (no approver).
    expect(outer.map((d) => d.status)).toEqual(['executed', 'ask']);
    expect(results[0]!.content).toContain('denied');
    const audit = await agent!.audit();
    expect(audit.find((r) => r.tool === 'salary_analysis')).toMatchObject({ status: 'denied' });
  });
});

describe('plan mode, todos and task_stop', () => {
  it('enter_plan_mode blocks writes until exit_plan_mode restores the previous mode', async () => {
    const write = {
      name: 'ticket_create',
      arguments: { title: 'After plan', body: 'b', priority: 'normal' },
    };
    const { decisions } = await run({
      approver: { request: async () => ({ behavior: 'allow' }) },
      script: [
        { tool_calls: [{ name: 'enter_plan_mode', arguments: { reason: 'think first' } }] },
        { tool_calls: [write, { name: 'calendar_list', arguments: YEAR }] },
        { tool_calls: [{ name: 'exit_plan_mode', arguments: { plan: '1. file a ticket' } }] },
        { tool_calls: [write] },
        { text: 'done' },
      ],
    });
    expect(decisions.map((d) => [d.tool, d.status])).toEqual([
      ['enter_plan_mode', 'executed'],
      ['ticket_create', 'denied'],
      ['calendar_list', 'executed'],
      ['exit_plan_mode', 'executed'],
      ['ticket_create', 'executed'],
    ]);
    expect(decisions[1]!.decision.ruleId).toBe('mode.plan-blocked');
    expect(agent!.session.approvalMode).toBe('auto-edit');
  });

  it('todo_write keeps the agent list; task_stop stops a background agent its owner started', async () => {
    const { decisions, results, events } = await run({
      definitions: [def('idler')],
      script: {
        turns: [
          {
            tool_calls: [
              { name: 'todo_write', arguments: { todos: [{ content: 'check', status: 'in_progress' }] } },
              { name: 'agent', arguments: { agent: 'idler', prompt: 'idle', mode: 'background' } },
            ],
          },
          { tool_calls: [{ name: 'task_stop', arguments: { task_id: 'bg-1' } }] },
          { tool_calls: [{ name: 'task_output', arguments: { task_id: 'bg-1' } }] },
          { text: 'stopped' },
        ],
        agents: { idler: [{ text: 'z', delay_ms: 60_000 }] },
      },
    });
    expect(decisions.map((d) => [d.tool, d.status])).toEqual([
      ['todo_write', 'executed'],
      ['agent', 'executed'],
      ['task_stop', 'executed'],
      ['task_output', 'executed'],
    ]);
    expect(results[0]!.content).toContain('"in_progress":1');
    expect(results[2]!.content).toContain('interrupted');
    expect(results[3]!.content).toContain('"status":"interrupted"');
    expect(events.find((e) => e.type === 'subagent_finished')).toMatchObject({
      child: 'idler',
      status: 'interrupted',
    });
  });
});
