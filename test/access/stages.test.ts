import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ACCESS_EXTENSION_KEY,
  type AccessState,
  assertInteractiveCaller,
  bubbleApprover,
  buildAccessContext,
  createAccessStage,
  createApprovalStage,
  defineAgent,
  filterDeclarations,
  InteractiveToolError,
  mergeAccessSettings,
  withCallRoute,
} from '../../src/access/index.js';
import type { ApprovalRequest, Approver, CallContext } from '../../src/gateway/index.js';
import { ToolGateway } from '../../src/gateway/index.js';
import { commandSubject, type ToolKind, type ToolSpec } from '../../src/tools/index.js';
import { ROOTS } from './fixtures.js';

function spec(name: string, kind: ToolKind, readOnly = false): ToolSpec {
  return {
    name,
    description: name,
    inputSchema: z.any(),
    annotations: { readOnly, destructive: false, idempotent: readOnly, openWorld: false },
    riskLevel: 'low',
    permissions: { allowedRoles: ['user'], requiredDataLevel: 'L1', category: 'workspace' },
    requiresReview: false,
    timeoutMs: 1000,
    kind,
    // The shell manifest says its processes are confined (the real shell tool's sandbox probe
    // answers this; test/tools/workspace/sandbox.test.ts covers the tool itself).
    ...(kind === 'shell'
      ? {
          sandbox: { available: () => true, describe: () => 'test sandbox' },
          permissionSubject: commandSubject,
        }
      : {}),
    execute: async () => ({ ok: true }),
  };
}

const TOOLS = new Map<string, ToolSpec>(
  [
    spec('read_file', 'read', true),
    spec('edit', 'edit'),
    spec('shell', 'shell'),
    spec('ask_user', 'control'),
    spec('tool_call', 'control'),
    spec('tool_search', 'control'),
    spec('exec', 'control'),
    spec('agent', 'agent'),
    spec('mcp__gh__get_issue', 'mcp', true),
  ].map((s) => [s.name, s]),
);
const NAMES = [...TOOLS.keys()];

const gateway = new ToolGateway({
  tools: TOOLS,
  audit: { record: () => {}, flush: async () => {} },
  stages: [createAccessStage(), createApprovalStage({ resolveTool: (n) => TOOLS.get(n) })],
  dryRunOnly: true,
});

function ctxFor(state: AccessState, background = false): CallContext {
  return {
    identity: { tenant: 't', user: 'u', roles: ['user'], dataLevel: 'L1', attributes: {} },
    sessionId: 's',
    agent: { name: state.agentName, depth: state.depth, background, teammate: false },
    extensions: { [ACCESS_EXTENSION_KEY]: state },
  };
}

function build(
  def?: Parameters<typeof defineAgent>[0],
  rules: { allow?: string[]; deny?: string[]; ask?: string[] } = {},
) {
  const settings = mergeAccessSettings(
    [{ level: 'user', path: 'u', settings: { permissions: rules, approvalMode: 'default' } }],
    true,
  );
  return buildAccessContext({
    available: NAMES,
    settings,
    roots: ROOTS,
    trusted: true,
    definitions: def ? [defineAgent(def)] : [],
    ...(def ? { agentName: def.name } : {}),
  });
}

const call = (name: string, args: unknown = {}) => ({ id: 'c', name, arguments: args });

describe('access and approval stages inside the ToolGateway', () => {
  it('unknown and forbidden tools get the same answer', async () => {
    const sub = build({ name: 'helper', description: 'd', tools: ['read_file', 'tool_call'] }).state;
    const a = await gateway.check(call('edit', { file_path: 'a' }), ctxFor(sub));
    const b = await gateway.check(call('nonexistent_tool'), ctxFor(sub));
    const c = await gateway.check(call('ask_user'), ctxFor(sub));
    for (const [r, n] of [
      [a, 'edit'],
      [b, 'nonexistent_tool'],
      [c, 'ask_user'],
    ] as const) {
      expect(r.decision).toMatchObject({
        verdict: 'deny',
        stage: 'access',
        ruleId: 'tool.unavailable',
        reason: `Tool ${n} is not available.`,
      });
    }
  });

  it('tool_call is checked as its target, at access and at approval', async () => {
    const sub = build({ name: 'helper', description: 'd', tools: ['read_file', 'edit', 'tool_call'] }).state;
    const ok = await gateway.check(
      call('tool_call', { name: 'read_file', arguments: { path: 'a' } }),
      ctxFor(sub),
    );
    expect(ok.verdict).toBe('allow');
    const edit = await gateway.check(
      call('tool_call', { name: 'edit', arguments: { file_path: 'a' } }),
      ctxFor(sub),
    );
    expect(edit.decision).toMatchObject({ verdict: 'ask', stage: 'approval' });
    const hidden = await gateway.check(
      call('tool_call', { name: 'shell', arguments: { command: 'ls' } }),
      ctxFor(sub),
    );
    expect(hidden.decision.reason).toBe('Tool shell is not available.');
  });

  it('exec-routed calls cannot reach loop-driving tools', async () => {
    const main = build().state;
    const viaExec = withCallRoute(ctxFor(main), 'exec');
    expect((await gateway.check(call('agent', { subagent_type: 'x' }), viaExec)).decision.ruleId).toBe(
      'access.not-exec-callable',
    );
    expect((await gateway.check(call('read_file', { path: 'a' }), viaExec)).verdict).toBe('allow');
  });

  it('scoped deny from disallowedTools and permission denies are enforced at invocation', async () => {
    const sub = build(
      { name: 'helper', description: 'd', disallowedTools: ['shell(rm *)'] },
      { allow: ['Bash'] },
    ).state;
    expect(
      (await gateway.check(call('shell', { command: 'ls && rm -rf /' }), ctxFor(sub))).decision,
    ).toMatchObject({
      verdict: 'deny',
      ruleId: 'permission.deny',
    });
    expect((await gateway.check(call('shell', { command: 'ls' }), ctxFor(sub))).verdict).toBe('allow');
  });

  it('a background agent is denied instead of asked', async () => {
    const sub = build({ name: 'bg', description: 'd', background: true }).state;
    const r = await gateway.check(call('edit', { file_path: 'a' }), ctxFor(sub, true));
    expect(r.decision.ruleId).toBe('approval.background-no-prompt');
  });

  it('no access state → fail closed', async () => {
    const r = await gateway.check(call('read_file', { path: 'a' }), {
      identity: { tenant: 't', user: 'u', roles: [], dataLevel: 'L1', attributes: {} },
      sessionId: 's',
    });
    expect(r.decision.ruleId).toBe('tool.unavailable');
  });

  it('declarations show only the agent’s tools', () => {
    const sub = build({ name: 'helper', description: 'd', tools: ['Read', 'mcp__gh'] }).state;
    expect(filterDeclarations([...TOOLS.values()], sub).map((t) => t.name)).toEqual([
      'read_file',
      'mcp__gh__get_issue',
    ]);
  });
});

describe('bubbleApprover never hangs', () => {
  const req = { call: { id: 'c', name: 'edit', arguments: {} } } as unknown as ApprovalRequest;

  it('times out and denies with the reason reported', async () => {
    const reasons: string[] = [];
    let parentSignal: AbortSignal | undefined;
    const silent: Approver = {
      request: (_r, signal) => {
        parentSignal = signal;
        return new Promise(() => {});
      },
    };
    const answer = await bubbleApprover(silent, {
      timeoutMs: 20,
      onUnanswered: (_r, why) => reasons.push(why),
    }).request(req, new AbortController().signal);
    expect(answer).toMatchObject({ behavior: 'deny' });
    expect(answer.message).toMatch(/within 20 ms/);
    expect(reasons).toHaveLength(1);
    expect(parentSignal?.aborted).toBe(true);
  });

  it('forwards the parent answer, and denies on parent error or abort', async () => {
    const yes: Approver = { request: async () => ({ behavior: 'allow', message: 'ok' }) };
    expect(
      (await bubbleApprover(yes, { timeoutMs: 1000 }).request(req, new AbortController().signal)).behavior,
    ).toBe('allow');
    const broken: Approver = { request: async () => Promise.reject(new Error('ui gone')) };
    const a = await bubbleApprover(broken, { timeoutMs: 1000 }).request(req, new AbortController().signal);
    expect(a).toMatchObject({ behavior: 'deny' });
    expect(a.message).toMatch(/ui gone/);
    const ac = new AbortController();
    const pending = bubbleApprover({ request: () => new Promise(() => {}) }, { timeoutMs: 10_000 }).request(
      req,
      ac.signal,
    );
    ac.abort();
    expect((await pending).message).toMatch(/cancelled/);
  });
});

describe('assertInteractiveCaller', () => {
  it('lets the main agent through and refuses spawned callers with a typed error', () => {
    expect(() => assertInteractiveCaller({})).not.toThrow();
    expect(() =>
      assertInteractiveCaller({ agent: { name: 'main', depth: 0, background: false, teammate: false } }),
    ).not.toThrow();
    for (const agent of [
      { name: 'bg', depth: 1, background: true, teammate: false },
      { name: 'tm', depth: 1, background: false, teammate: true },
      { name: 'fg', depth: 2, background: false, teammate: false },
    ]) {
      expect(() => assertInteractiveCaller({ agent })).toThrow(InteractiveToolError);
    }
    try {
      assertInteractiveCaller({ agent: { name: 'bg', depth: 1, background: true, teammate: false } });
    } catch (err) {
      expect((err as InteractiveToolError).code).toBe('access.interactive-caller');
    }
  });
});
