import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/index.js';
import { RECENT } from '../support/recent-dates.js';
import { type OfficeAgent, type OfficeAgentOptions, officeAgent } from './support/office-agent.js';

let agent: OfficeAgent | undefined;
afterEach(async () => {
  await agent?.cleanup();
  agent = undefined;
});

type ToolResult = Extract<AgentEvent, { type: 'tool_result' }>;

async function exec(code: string, opts: Partial<OfficeAgentOptions> = {}, timeout_ms?: number) {
  agent = await officeAgent({
    user: 'bob',
    approvalMode: 'auto-edit',
    trustedFolder: true,
    ...opts,
    script: [
      { tool_calls: [{ name: 'exec', arguments: { code, ...(timeout_ms ? { timeout_ms } : {}) } }] },
      { text: 'done' },
    ],
  });
  const events: AgentEvent[] = [];
  agent.session.on((e) => events.push(e));
  await agent.session.run('go').result;
  const result = events.find((e): e is ToolResult => e.type === 'tool_result')!;
  return { result, audit: await agent.audit() };
}

describe('exec: code mode in a QuickJS sandbox', () => {
  it('runs code whose tool calls each pass the gateway and are audited', async () => {
    const { result, audit } = await exec(`
      const sales = await callTool('sales_query', ${JSON.stringify({ ...RECENT, region: 'east' })});
      console.log('rows', sales.rows.length);
      return { total: sales.total, rows: sales.rows.length };
    `);
    expect(result.status).toBe('executed');
    const out = JSON.parse(result.content) as { result: { rows: number }; logs: string[]; toolCalls: number };
    expect(out.toolCalls).toBe(1);
    expect(out.logs[0]).toMatch(/^rows \d+$/);
    expect(audit.map((r) => [r.tool, r.status])).toEqual(
      expect.arrayContaining([
        ['sales_query', 'executed'],
        ['exec', 'executed'],
      ]),
    );
  });

  it('refused calls surface as errors inside the script; loop-driving tools are not callable from exec', async () => {
    const { result, audit } = await exec(`
      const out = [];
      for (const [name, args] of [
        ['billing_report_query', { period: '2026-Q1', project: 'atlas' }],
        ['agent', { agent: 'x', prompt: 'y' }],
        ['ask_user', { question: 'q' }],
        ['no_such_tool', {}],
      ]) {
        try { await callTool(name, args); out.push(name + ': ran'); }
        catch (e) { out.push(name + ': ' + e.message); }
      }
      return out;
    `);
    expect(result.status).toBe('executed');
    const lines = (JSON.parse(result.content) as { result: string[] }).result;
    expect(lines[0]).toMatch(/^billing_report_query: .*(denied|not executed)/);
    expect(lines[1]).toContain('not callable from exec');
    expect(lines[2]).toContain('not callable from exec');
    expect(lines[3]).toContain('Tool no_such_tool is not available.');
    expect(audit.filter((r) => r.tool !== 'exec').every((r) => r.status === 'denied')).toBe(true);
  });

  it('has no I/O of its own and is stopped by its CPU deadline', async () => {
    const { result } = await exec(
      `return [typeof require, typeof process, typeof fetch, typeof globalThis.std];`,
    );
    expect(JSON.parse(result.content).result).toEqual(['undefined', 'undefined', 'undefined', 'undefined']);
    await agent!.cleanup();
    agent = undefined;
    const spin = await exec('while (true) {}', {}, 200);
    expect(spin.result.status).toBe('failed');
    expect(spin.result.content).toMatch(/interrupted|stopped/i);
  });

  it('is stopped by an interrupt while it waits on a tool', async () => {
    agent = await officeAgent({
      user: 'bob',
      approvalMode: 'auto-edit',
      trustedFolder: true,
      script: [
        { tool_calls: [{ name: 'exec', arguments: { code: 'await new Promise(() => {}); return 1;' } }] },
        { text: 'x' },
      ],
    });
    const handle = agent.session.run('go');
    const started = new Promise<void>((r) => {
      const off = agent!.session.on((e) => {
        if (e.type === 'tool_proposed') {
          off();
          r();
        }
      });
    });
    await started;
    await new Promise((r) => setTimeout(r, 50));
    agent.session.interrupt();
    expect((await handle.result).status).toBe('interrupted');
    await agent.session.idle();
    expect(agent.session.tracker.pending()).toEqual({ timers: [], promises: [] });
  });
});
