import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentEvent,
  connectMcpServer,
  type McpConnection,
  mcpRisk,
  mcpToolName,
} from '../../src/agent/index.js';
import { sandboxUp } from '../support/sandbox.js';
import { type OfficeAgent, officeAgent } from './support/office-agent.js';

const ROLES = ['employee', 'sales_manager', 'finance_analyst'];
let conn: McpConnection;

beforeAll(async () => {
  conn = await connectMcpServer({
    name: 'fixture',
    command: process.execPath,
    args: ['--import', 'tsx', resolve('test/agent/support/mcp-fixture-server.ts')],
    allowedRoles: ROLES,
  });
}, 60_000);
afterAll(async () => {
  await conn?.close();
});

/** A call context as trusted runtime code builds it. */
function callContext() {
  return {
    identity: { tenant: 'acme', user: 'bob', roles: ['employee'], dataLevel: 'L1' as const, attributes: {} },
    sessionId: 's',
    callId: 'c',
    signal: new AbortController().signal,
  };
}

describe('MCP import', () => {
  it.each([
    [{}, { riskLevel: 'medium', requiresReview: false, readOnly: false }],
    [{ readOnlyHint: true }, { riskLevel: 'low', requiresReview: false, readOnly: true }],
    [
      { readOnlyHint: true, destructiveHint: true },
      { riskLevel: 'high', requiresReview: true, readOnly: false },
    ],
    [{ destructiveHint: false }, { riskLevel: 'medium', requiresReview: false, readOnly: false }],
  ])('annotations %j → conservative manifest %j', (annotations, expected) => {
    const r = mcpRisk({ name: 't', annotations });
    expect({
      riskLevel: r.riskLevel,
      requiresReview: r.requiresReview,
      readOnly: r.annotations.readOnly,
    }).toEqual(expected);
  });

  it('names tools mcp__server__tool with registrable characters', () => {
    expect(mcpToolName('git hub', 'list.repos')).toBe('mcp__git_hub__list_repos');
  });

  it('imports a real server over stdio and its calls pass the gateway', async () => {
    expect(conn.tools.map((t) => [t.name, t.riskLevel, t.kind]).sort()).toEqual([
      ['mcp__fixture__lookup', 'low', 'mcp'],
      ['mcp__fixture__peek', 'medium', 'mcp'],
      ['mcp__fixture__plain', 'medium', 'mcp'],
      ['mcp__fixture__touch', 'medium', 'mcp'],
      ['mcp__fixture__wipe', 'high', 'mcp'],
    ]);
    let agent: OfficeAgent | undefined;
    try {
      agent = await officeAgent({
        user: 'bob',
        approvalMode: 'auto',
        trustedFolder: true,
        extraTools: conn.tools,
        script: [
          {
            tool_calls: [
              { name: 'mcp__fixture__lookup', arguments: { word: 'gateway' } },
              { name: 'mcp__fixture__lookup', arguments: { word: 42 } },
              { name: 'mcp__fixture__plain', arguments: { n: -1 } },
              { name: 'mcp__fixture__wipe', arguments: { target: 'all' } },
            ],
          },
          { text: 'done' },
        ],
      });
      const events: AgentEvent[] = [];
      agent.session.on((e) => events.push(e));
      await agent.session.run('go').result;
      const decisions = events.filter((e) => e.type === 'decision') as Extract<
        AgentEvent,
        { type: 'decision' }
      >[];
      expect(decisions.map((d) => [d.tool, d.status])).toEqual([
        ['mcp__fixture__lookup', 'executed'],
        ['mcp__fixture__lookup', 'denied'],
        ['mcp__fixture__plain', 'ask'],
        // Destructive, so high risk: the user's "go" never declared it (intent slot).
        ['mcp__fixture__wipe', 'denied'],
      ]);
      expect(decisions[3]!.decision.ruleId).toBe('intent.no-declaration');
      expect(decisions[1]!.decision.stage).toBe('schema');
      const first = events.find((e) => e.type === 'tool_result');
      expect(first?.type === 'tool_result' && first.content).toContain('definition of gateway');
      expect((await agent.audit()).filter((r) => r.tool.startsWith('mcp__'))).toHaveLength(4);
    } finally {
      await agent?.cleanup();
    }
  });

  it('a tool error on the server is a failed call, not a crash', async () => {
    const plain = conn.tools.find((t) => t.name === 'mcp__fixture__plain')!;
    const ctx = callContext();
    await expect(plain.execute({ n: -1 }, ctx)).rejects.toMatchObject({ code: 'mcp.tool_error' });
    await expect(plain.execute({ n: 4 }, ctx)).resolves.toEqual({ text: '8' });
  });

  it.skipIf(!sandboxUp)(
    'a stdio server can run in the process sandbox: it cannot write or read outside its folder',
    async () => {
      const outside = realpathSync(mkdtempSync(join(tmpdir(), 'twinline-mcp-outside-')));
      writeFileSync(join(outside, 'secret.txt'), 'outside secret');
      const boxed = await connectMcpServer({
        name: 'boxed',
        command: process.execPath,
        args: ['--import', 'tsx', resolve('test/agent/support/mcp-fixture-server.ts')],
        allowedRoles: ROLES,
        sandbox: 'read-only',
      });
      try {
        const ctx = callContext();
        const touch = boxed.tools.find((t) => t.name === 'mcp__boxed__touch')!;
        const peek = boxed.tools.find((t) => t.name === 'mcp__boxed__peek')!;
        await expect(touch.execute({ path: join(outside, 'marker') }, ctx)).rejects.toMatchObject({
          code: 'mcp.tool_error',
        });
        await expect(peek.execute({ path: join(outside, 'secret.txt') }, ctx)).rejects.toMatchObject({
          code: 'mcp.tool_error',
        });
        expect(existsSync(join(outside, 'marker'))).toBe(false);
        // Its own folder (the repository, read-only here) is visible.
        await expect(peek.execute({ path: resolve('package.json') }, ctx)).resolves.toMatchObject({
          text: expect.stringContaining('"name": "twinline"'),
        });
      } finally {
        await boxed.close();
        rmSync(outside, { recursive: true, force: true });
      }
    },
    60_000,
  );

  it('a sandboxed server whose sandbox cannot be created is refused, never started unconfined', async () => {
    const { ProcessSandbox } = await import('../../src/tools/workspace/index.js');
    await expect(
      connectMcpServer({
        name: 'nobox',
        command: process.execPath,
        args: ['-e', 'require("fs").writeFileSync(process.argv[1], "x")', resolve('must-not-exist.txt')],
        allowedRoles: ROLES,
        sandbox: { profile: 'read-only', sandbox: new ProcessSandbox({ bwrapPath: '/nonexistent/bwrap' }) },
      }),
    ).rejects.toMatchObject({ code: 'workspace.sandbox-unavailable' });
    expect(existsSync(resolve('must-not-exist.txt'))).toBe(false);
  });
});
