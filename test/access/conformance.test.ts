/**
 * The sub-agent permission conformance table (docs/access.md, "Where Qwen Code and Claude Code
 * differ, and what we chose"), every row.
 * `differs: true` marks rows where Twinline deliberately behaves unlike that upstream; `ours`
 * states what we do and docs/access.md says why.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AgentDefinitionError,
  assertModeAllowed,
  bubbleApprover,
  buildAccessContext,
  clampRequestedMode,
  compileCommandPattern,
  decideApproval,
  execCallableTools,
  filterToolSearch,
  GLOBAL_DENY_FOR_SPAWNED,
  loadAgentDefinitions,
  mergeAccessSettings,
  parseRule,
  resolveStartMode,
  resolveSubagentMode,
  TrustGateError,
} from '../../src/access/index.js';
import type { ApprovalRequest } from '../../src/gateway/index.js';
import {
  ALL_BUILTINS,
  access,
  approve,
  defFile,
  mainOf,
  parseDef,
  ROOTS,
  ruleEffect,
  rules,
  stateFor,
  subTools,
} from './fixtures.js';

interface Row {
  readonly n: number;
  readonly sys: 'Q' | 'C';
  readonly situation: string;
  /** What Twinline does. */
  readonly ours: string;
  readonly differs?: boolean;
  readonly check: () => void | Promise<void>;
}

const rejects = (front: string, field?: string) => {
  try {
    parseDef(front);
  } catch (err) {
    expect(err).toBeInstanceOf(AgentDefinitionError);
    if (field) expect((err as AgentDefinitionError).field).toBe(field);
    return;
  }
  throw new Error(`expected rejection: ${front}`);
};
const base = 'name: helper\ndescription: helps';
const cmd = (rule: string, command: string) => compileCommandPattern(rule)(command);
const SLACK = ['mcp__slack__post', 'mcp__slack__read', 'mcp__slackbot__post', 'read_file'];
const mode = (
  p: Parameters<typeof resolveSubagentMode>[0],
  d: Parameters<typeof resolveSubagentMode>[1],
  t: boolean,
) => ({
  narrow: resolveSubagentMode(p, d, t, 'narrow'),
  qwen: resolveSubagentMode(p, d, t, 'qwen-compatible'),
});
const tmp = () => mkdtempSync(join(tmpdir(), 'twl-access-'));
const writeAgent = (dir: string, file: string, text: string) => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), text);
};

const ROWS: Row[] = [
  {
    n: 1,
    sys: 'Q',
    situation: 'file without frontmatter',
    ours: 'rejected, line 1',
    check: () => {
      expect(() => parseAgentText('no frontmatter here')).toThrow(/missing YAML frontmatter/);
      try {
        parseAgentText('no frontmatter here');
      } catch (err) {
        expect((err as AgentDefinitionError).line).toBe(1);
      }
    },
  },
  {
    n: 2,
    sys: 'Q',
    situation: 'name: default',
    ours: 'rejected (reserved)',
    check: () => rejects('name: default\ndescription: d', 'name'),
  },
  {
    n: 3,
    sys: 'Q',
    situation: 'bad names',
    ours: 'rejected',
    check: () => {
      for (const n of ['a', 'x'.repeat(51), '-x', 'x_']) rejects(`name: "${n}"\ndescription: d`, 'name');
    },
  },
  {
    n: 4,
    sys: 'Q',
    situation: 'approvalMode: sudo',
    ours: 'file rejected',
    check: () => rejects(`${base}\napprovalMode: sudo`, 'approvalMode'),
  },
  {
    n: 5,
    sys: 'Q',
    situation: 'approvalMode: 5',
    ours: 'file rejected',
    check: () => rejects(`${base}\napprovalMode: 5`, 'approvalMode'),
  },
  {
    n: 6,
    sys: 'Q',
    situation: 'permissionMode: acceptEdits',
    ours: 'auto-edit',
    check: () => {
      expect(parseDef(`${base}\npermissionMode: acceptEdits`).approvalMode).toBe('auto-edit');
    },
  },
  {
    n: 7,
    sys: 'Q',
    situation: 'permissionMode: auto',
    ours: 'auto (we have a real auto mode)',
    differs: true,
    check: () => {
      expect(parseDef(`${base}\npermissionMode: auto`).approvalMode).toBe('auto');
    },
  },
  {
    n: 8,
    sys: 'Q',
    situation: 'permissionMode: dontAsk',
    ours: 'default',
    check: () => {
      expect(parseDef(`${base}\npermissionMode: dontAsk`).approvalMode).toBe('default');
    },
  },
  {
    n: 9,
    sys: 'Q',
    situation: 'approvalMode plan + permissionMode bypassPermissions',
    ours: 'plan',
    check: () => {
      expect(parseDef(`${base}\napprovalMode: plan\npermissionMode: bypassPermissions`).approvalMode).toBe(
        'plan',
      );
    },
  },
  {
    n: 10,
    sys: 'Q',
    situation: 'permissionMode: weird',
    ours: 'file rejected (dropping it could inherit a more permissive mode)',
    differs: true,
    check: () => {
      rejects(`${base}\npermissionMode: weird`, 'permissionMode');
    },
  },
  {
    n: 11,
    sys: 'Q',
    situation: 'tools as a comma string',
    ours: 'split; grep_search resolves to grep',
    check: () => {
      const def = parseDef(`${base}\ntools: "read_file, grep_search"`);
      expect(def.tools).toEqual(['read_file', 'grep_search']);
      expect(subTools(ALL_BUILTINS, { definition: def }).names).toEqual(['grep', 'read_file']);
    },
  },
  {
    n: 12,
    sys: 'Q',
    situation: 'maxTurns "12" and runConfig.max_turns 50',
    ours: '12',
    check: () => {
      expect(parseDef(`${base}\nmaxTurns: "12"\nrunConfig:\n  max_turns: 50`).maxTurns).toBe(12);
    },
  },
  {
    n: 13,
    sys: 'Q',
    situation: 'color: magenta',
    ours: 'ignored (color is presentation only)',
    check: () => {
      expect(parseDef(`${base}\ncolor: magenta`)).not.toHaveProperty('color');
    },
  },
  {
    n: 14,
    sys: 'Q',
    situation: 'same name in project and user dirs',
    ours: 'project wins',
    check: () => {
      const root = tmp();
      writeAgent(join(root, 'p/.twinline/agents'), 'a.md', defFile('name: helper\ndescription: project one'));
      writeAgent(join(root, 'h/.twinline/agents'), 'a.md', defFile('name: Helper\ndescription: user one'));
      const r = loadAgentDefinitions({ cwd: join(root, 'p'), homeDir: join(root, 'h') });
      expect(r.definitions.map((d) => d.description)).toEqual(['project one']);
      expect(r.shadowed.map((d) => d.source)).toEqual(['user']);
    },
  },
  {
    n: 15,
    sys: 'Q',
    situation: 'project root == home',
    ours: 'project level skipped; user agents load once',
    check: () => {
      const root = tmp();
      writeAgent(join(root, '.twinline/agents'), 'a.md', defFile(base));
      const r = loadAgentDefinitions({ cwd: root, homeDir: root });
      expect(r.definitions.map((d) => d.source)).toEqual(['user']);
    },
  },
  {
    n: 16,
    sys: 'Q',
    situation: 'lookup "explore"',
    ours: 'case-insensitive lookup; no built-in agents ship',
    differs: true,
    check: () => {
      const def = parseDef('name: Explore\ndescription: explores');
      const ctx = buildAccessContext({
        available: ALL_BUILTINS,
        settings: mergeAccessSettings([], true),
        roots: ROOTS,
        trusted: true,
        definitions: [def],
        agentName: 'explore',
      });
      expect(ctx.state.agentName).toBe('Explore');
    },
  },
  {
    n: 17,
    sys: 'Q',
    situation: 'broken project agent, valid user agent of the same name',
    ours: 'no fallthrough for any load error, not just executors',
    check: () => {
      const root = tmp();
      writeAgent(
        join(root, 'p/.twinline/agents'),
        'a.md',
        defFile('name: helper\ndescription: d\napprovalMode: sudo'),
      );
      writeAgent(join(root, 'h/.twinline/agents'), 'a.md', defFile('name: helper\ndescription: user'));
      const r = loadAgentDefinitions({ cwd: join(root, 'p'), homeDir: join(root, 'h') });
      expect(r.definitions).toEqual([]);
      expect(r.errors).toHaveLength(1);
    },
  },
  {
    n: 18,
    sys: 'Q',
    situation: 'registry {read_file, agent, todo_write, ask_user}, no list',
    ours: 'read_file, agent, todo_write (todo_write is per-agent state, harmless)',
    differs: true,
    check: () => {
      expect(subTools(['read_file', 'agent', 'todo_write', 'ask_user']).names).toEqual([
        'agent',
        'read_file',
        'todo_write',
      ]);
    },
  },
  {
    n: 19,
    sys: 'Q',
    situation: 'spawned agent without a depth frame',
    ours: 'agent excluded (fail closed)',
    check: () => {
      const res = subTools(['agent', 'read_file'], { position: {} }).res;
      expect(res.allowed.has('agent')).toBe(false);
      expect(res.removed.get('agent')).toBe('depth');
    },
  },
  {
    n: 20,
    sys: 'Q',
    situation: 'depth 1, max 5',
    ours: 'agent allowed',
    check: () => {
      expect(subTools(['agent'], { position: { depth: 1 }, maxDepth: 5 }).names).toEqual(['agent']);
    },
  },
  {
    n: 21,
    sys: 'Q',
    situation: 'depth 1 max 1; depth 2 max 2',
    ours: 'excluded / excluded',
    check: () => {
      expect(subTools(['agent'], { position: { depth: 1 }, maxDepth: 1 }).names).toEqual([]);
      expect(subTools(['agent'], { position: { depth: 2 }, maxDepth: 2 }).names).toEqual([]);
    },
  },
  {
    n: 22,
    sys: 'Q',
    situation: 'depth 2, max 3',
    ours: 'allowed',
    check: () => {
      expect(subTools(['agent'], { position: { depth: 2 }, maxDepth: 3 }).names).toEqual(['agent']);
    },
  },
  {
    n: 23,
    sys: 'Q',
    situation: 'teammate',
    ours: 'agent never',
    check: () => {
      expect(subTools(['agent', 'read_file'], { position: { depth: 1, teammate: true } }).names).toEqual([
        'read_file',
      ]);
    },
  },
  {
    n: 24,
    sys: 'Q',
    situation: 'tools [read_file, enter_plan_mode, exit_plan_mode]',
    ours: 'read_file only',
    check: () => {
      const def = { name: 'x', tools: ['read_file', 'enter_plan_mode', 'exit_plan_mode'] };
      expect(subTools(ALL_BUILTINS, { definition: def }).names).toEqual(['read_file']);
    },
  },
  {
    n: 25,
    sys: 'Q',
    situation: 'sub-agent calls exit_plan_mode',
    ours: 'deny tool.unavailable, same text as a nonexistent tool',
    differs: true,
    check: () => {
      const s = stateFor(ALL_BUILTINS);
      const d = access(s, 'exit_plan_mode');
      expect(d).toMatchObject({
        verdict: 'deny',
        ruleId: 'tool.unavailable',
        reason: 'Tool exit_plan_mode is not available.',
      });
    },
  },
  {
    n: 26,
    sys: 'Q',
    situation: "tools ['*'] with a deferred MCP tool",
    ours: 'included (deferral is presentation, not access)',
    check: () => {
      expect(
        subTools(['read_file', 'mcp__github__create_issue'], { definition: { name: 'x', tools: ['*'] } })
          .names,
      ).toContain('mcp__github__create_issue');
    },
  },
  {
    n: 27,
    sys: 'Q',
    situation: 'tool demoted by an eager allowlist',
    ours: "no eager demotion: access decides callability; hiding is the runtime's display concern",
    differs: true,
    check: () => {
      expect(
        subTools(['read_file', 'web_fetch'], { definition: { name: 'x', tools: ['web_fetch'] } }).names,
      ).toEqual(['web_fetch']);
    },
  },
  {
    n: 28,
    sys: 'Q',
    situation: 'tools [ReadFile, SearchFiles]',
    ours: 'read_file, grep',
    check: () => {
      expect(
        subTools(ALL_BUILTINS, { definition: { name: 'x', tools: ['ReadFile', 'SearchFiles'] } }).names,
      ).toEqual(['grep', 'read_file']);
    },
  },
  {
    n: 29,
    sys: 'Q',
    situation: 'tools [Read, Bash] (Claude names)',
    ours: 'read_file, shell (alias table)',
    differs: true,
    check: () => {
      expect(subTools(ALL_BUILTINS, { definition: { name: 'x', tools: ['Read', 'Bash'] } }).names).toEqual([
        'read_file',
        'shell',
      ]);
    },
  },
  {
    n: 30,
    sys: 'Q',
    situation: 'tools [mcp__slack]',
    ours: 'every slack tool (server patterns expand in allowlists)',
    differs: true,
    check: () => {
      expect(subTools(SLACK, { definition: { name: 'x', tools: ['mcp__slack'] } }).names).toEqual([
        'mcp__slack__post',
        'mcp__slack__read',
      ]);
    },
  },
  {
    n: 31,
    sys: 'Q',
    situation: 'disallowedTools [mcp__slack]',
    ours: 'slack removed, slackbot kept',
    check: () => {
      expect(subTools(SLACK, { definition: { name: 'x', disallowedTools: ['mcp__slack'] } }).names).toEqual([
        'mcp__slackbot__post',
        'read_file',
      ]);
    },
  },
  {
    n: 32,
    sys: 'Q',
    situation: 'disallowed mcp__foo.bar / mcp__foo_bar__* vs normalised name',
    ours: 'removed',
    check: () => {
      for (const p of ['mcp__foo.bar', 'mcp__foo_bar__*']) {
        expect(
          subTools(['mcp__foo_bar__evil_1oxrpi0'], { definition: { name: 'x', disallowedTools: [p] } }).names,
        ).toEqual([]);
      }
    },
  },
  {
    n: 33,
    sys: 'Q',
    situation: 'disallowed mcp__other_server__*',
    ours: 'kept',
    check: () => {
      expect(
        subTools(['mcp__foo_bar__evil_1oxrpi0'], {
          definition: { name: 'x', disallowedTools: ['mcp__other_server__*'] },
        }).names,
      ).toEqual(['mcp__foo_bar__evil_1oxrpi0']);
    },
  },
  {
    n: 34,
    sys: 'Q',
    situation: "disallowedTools ['Bash(rm *)']",
    ours: 'shell kept; rm calls denied by a scoped rule',
    differs: true,
    check: () => {
      const s = stateFor(ALL_BUILTINS, { disallowedTools: ['Bash(rm *)'] });
      expect(s.tools.has('shell')).toBe(true);
      expect(access(s, 'shell', { command: 'rm -rf build' }).verdict).toBe('deny');
      expect(access(s, 'shell', { command: 'ls' }).verdict).toBe('allow');
    },
  },
  {
    n: 35,
    sys: 'Q',
    situation: 'disallowed mcp__*',
    ours: 'all MCP removed',
    check: () => {
      expect(subTools(SLACK, { definition: { name: 'x', disallowedTools: ['mcp__*'] } }).names).toEqual([
        'read_file',
      ]);
    },
  },
  {
    n: 36,
    sys: 'Q',
    situation: 'model calls an undeclared tool',
    ours: '"Tool X is not available." — same for nonexistent tools',
    differs: true,
    check: () => {
      const s = stateFor(['read_file']);
      expect(access(s, 'shell').reason).toBe('Tool shell is not available.');
      expect(access(s, 'no_such_tool')).toMatchObject({
        ruleId: 'tool.unavailable',
        reason: 'Tool no_such_tool is not available.',
      });
    },
  },
  {
    n: 37,
    sys: 'Q',
    situation: 'tools [read_file, tool_search, tool_call]; tool_call to unlisted mcp__x__y',
    ours: 'refused',
    check: () => {
      const s = stateFor(['read_file', 'tool_search', 'tool_call', 'mcp__x__y'], {
        tools: ['read_file', 'tool_search', 'tool_call'],
      });
      expect(access(s, 'tool_call', { name: 'mcp__x__y', arguments: {} })).toMatchObject({
        verdict: 'deny',
        ruleId: 'tool.unavailable',
      });
    },
  },
  {
    n: 38,
    sys: 'Q',
    situation: "tools ['*'], disallowed mcp__x; tool_call to mcp__x__y",
    ours: 'refused',
    check: () => {
      const s = stateFor(['tool_call', 'mcp__x__y'], { tools: ['*'], disallowedTools: ['mcp__x'] });
      expect(access(s, 'tool_call', { name: 'mcp__x__y' }).verdict).toBe('deny');
    },
  },
  {
    n: 39,
    sys: 'Q',
    situation: "tool_call {name:'tool_search'}",
    ours: 'refused (bridge tool)',
    check: () => {
      const s = stateFor(['tool_call', 'tool_search']);
      expect(access(s, 'tool_call', { name: 'tool_search' }).ruleId).toBe('access.bridge-refused');
    },
  },
  {
    n: 40,
    sys: 'Q',
    situation: 'tool_call to an already-visible tool',
    ours: 'allowed after the same re-check (refusing it adds no safety)',
    differs: true,
    check: () => {
      const s = stateFor(['tool_call', 'read_file']);
      expect(access(s, 'tool_call', { name: 'read_file', arguments: { path: 'a' } }).verdict).toBe('allow');
    },
  },
  {
    n: 41,
    sys: 'Q',
    situation: 'sub-agent tool_call to a global-deny tool',
    ours: 'refused as unavailable (todo_write itself stays allowed for sub-agents)',
    differs: true,
    check: () => {
      const s = stateFor(['tool_call', 'ask_user', 'todo_write']);
      expect(access(s, 'tool_call', { name: 'ask_user' })).toMatchObject({
        reason: 'Tool ask_user is not available.',
      });
      expect(access(s, 'tool_call', { name: 'todo_write' }).verdict).toBe('allow');
    },
  },
  {
    n: 42,
    sys: 'Q',
    situation: 'tool_search in a sub-agent',
    ours: "results filtered to the agent's own set (also its allowlist)",
    check: () => {
      const s = stateFor(['tool_search', 'read_file', 'ask_user', 'task_create'], {}, { background: true });
      expect(
        filterToolSearch([{ name: 'read_file' }, { name: 'ask_user' }, { name: 'task_create' }], s),
      ).toEqual([{ name: 'read_file' }]);
    },
  },
  {
    n: 43,
    sys: 'Q',
    situation: 'exec calls agent / tool_call; read_file / mcp__a__b',
    ours: 'rejected / callable',
    check: () => {
      const s = stateFor(['exec', 'agent', 'tool_call', 'read_file', 'mcp__a__b'], {}, { route: 'exec' });
      expect(access(s, 'agent').ruleId).toBe('access.not-exec-callable');
      expect(access(s, 'tool_call', { name: 'read_file' }).ruleId).toBe('access.not-exec-callable');
      expect(access(s, 'read_file', { path: 'x' }).verdict).toBe('allow');
      expect(access(s, 'mcp__a__b').verdict).toBe('allow');
    },
  },
  {
    n: 44,
    sys: 'Q',
    situation: 'code mode, tools [exec]',
    ours: 'exec binds only tools the agent is allowed — list them',
    differs: true,
    check: () => {
      const s = stateFor(['exec', 'read_file', 'grep'], { tools: ['exec'] });
      expect(execCallableTools(s)).toEqual([]);
      const t = stateFor(['exec', 'read_file', 'grep'], { tools: ['exec', 'read_file'] });
      expect(execCallableTools(t)).toEqual(['read_file']);
    },
  },
  {
    n: 45,
    sys: 'Q',
    situation: 'tools [exec, read_file], disallowed [read_file]',
    ours: 'read_file not bound; exec allowed',
    check: () => {
      const s = stateFor(['exec', 'read_file'], {
        tools: ['exec', 'read_file'],
        disallowedTools: ['read_file'],
      });
      expect(execCallableTools(s)).toEqual([]);
      expect(access(s, 'exec').verdict).toBe('allow');
    },
  },
  {
    n: 46,
    sys: 'Q',
    situation: 'resolve(yolo, def plan, trusted)',
    ours: 'narrow: plan; qwen-compatible: yolo',
    differs: true,
    check: () => {
      expect(mode('yolo', 'plan', true)).toEqual({ narrow: 'plan', qwen: 'yolo' });
    },
  },
  {
    n: 47,
    sys: 'Q',
    situation: 'resolve(auto-edit, def yolo, untrusted)',
    ours: 'auto-edit under qwen; narrow also clamps privilege in untrusted → default',
    differs: true,
    check: () => {
      expect(mode('auto-edit', 'yolo', false)).toEqual({ narrow: 'default', qwen: 'auto-edit' });
    },
  },
  {
    n: 48,
    sys: 'Q',
    situation: 'resolve(auto, def plan)',
    ours: 'narrow: plan; qwen: auto',
    differs: true,
    check: () => {
      expect(mode('auto', 'plan', true)).toEqual({ narrow: 'plan', qwen: 'auto' });
    },
  },
  {
    n: 49,
    sys: 'Q',
    situation: 'resolve(plan, no def)',
    ours: 'plan',
    check: () => {
      expect(mode('plan', undefined, true)).toEqual({ narrow: 'plan', qwen: 'plan' });
    },
  },
  {
    n: 50,
    sys: 'Q',
    situation: 'resolve(plan, def yolo, trusted)',
    ours: 'narrow: plan (no escape); qwen: yolo',
    differs: true,
    check: () => {
      expect(mode('plan', 'yolo', true)).toEqual({ narrow: 'plan', qwen: 'yolo' });
    },
  },
  {
    n: 51,
    sys: 'Q',
    situation: 'resolve(plan, def auto-edit, untrusted)',
    ours: 'plan',
    check: () => {
      expect(mode('plan', 'auto-edit', false)).toEqual({ narrow: 'plan', qwen: 'plan' });
    },
  },
  {
    n: 52,
    sys: 'Q',
    situation: 'resolve(default, no def, trusted)',
    ours: 'narrow: default (no silent escalation); qwen: auto-edit',
    differs: true,
    check: () => {
      expect(mode('default', undefined, true)).toEqual({ narrow: 'default', qwen: 'auto-edit' });
    },
  },
  {
    n: 53,
    sys: 'Q',
    situation: 'resolve(default, no def, untrusted)',
    ours: 'default',
    check: () => {
      expect(mode('default', undefined, false)).toEqual({ narrow: 'default', qwen: 'default' });
    },
  },
  {
    n: 54,
    sys: 'Q',
    situation: 'resolve(default, def auto, untrusted)',
    ours: 'default',
    check: () => {
      expect(mode('default', 'auto', false)).toEqual({ narrow: 'default', qwen: 'default' });
    },
  },
  {
    n: 55,
    sys: 'Q',
    situation: 'resolve(default|plan, def bubble)',
    ours: 'narrow: bubble / plan; qwen: default / default',
    differs: true,
    check: () => {
      expect(mode('default', 'bubble', true)).toEqual({ narrow: 'bubble', qwen: 'default' });
      expect(mode('plan', 'bubble', true)).toEqual({ narrow: 'plan', qwen: 'default' });
    },
  },
  {
    n: 56,
    sys: 'Q',
    situation: 'codex executor under an auto session',
    ours: 'no external executors; an in-process child inherits auto',
    differs: true,
    check: () => {
      expect(resolveSubagentMode('auto', undefined, true)).toBe('auto');
    },
  },
  {
    n: 57,
    sys: 'Q',
    situation: 'background agent needs approval for rm -rf build',
    ours: 'denied, reason given',
    check: () => {
      const d = approve('default', 'shell', { command: 'rm -rf build' }, {}, undefined, true);
      expect(d).toMatchObject({ verdict: 'deny', ruleId: 'approval.background-no-prompt' });
      expect(d.reason).toMatch(/background agent cannot prompt/);
    },
  },
  {
    n: 58,
    sys: 'Q',
    situation: 'background + bubble, parent can answer',
    ours: 'ask goes to the parent approver',
    check: async () => {
      const d = approve('bubble', 'shell', { command: 'rm -rf build' }, {}, undefined, true);
      expect(d.verdict).toBe('ask');
      const parent = { request: async () => ({ behavior: 'allow' as const }) };
      const answer = await bubbleApprover(parent, { timeoutMs: 1000 }).request(
        fakeRequest(),
        new AbortController().signal,
      );
      expect(answer.behavior).toBe('allow');
    },
  },
  {
    n: 59,
    sys: 'Q',
    situation: 'bubble without an interactive parent',
    ours: 'denied at once',
    check: async () => {
      const answer = await bubbleApprover(undefined, { timeoutMs: 1000 }).request(
        fakeRequest(),
        new AbortController().signal,
      );
      expect(answer.behavior).toBe('deny');
    },
  },
  {
    n: 60,
    sys: 'Q',
    situation: 'ask rule, yolo, shell',
    ours: 'ask (ask rules hold in every mode)',
    differs: true,
    check: () => {
      expect(approve('yolo', 'shell', { command: 'git push' }, { ask: ['Bash(git push:*)'] }).verdict).toBe(
        'ask',
      );
    },
  },
  {
    n: 61,
    sys: 'Q',
    situation: 'ask rule, yolo, ask_user',
    ours: 'ask',
    check: () => {
      expect(approve('yolo', 'ask_user', {}, { ask: ['AskUserQuestion'] }).verdict).toBe('ask');
    },
  },
  {
    n: 62,
    sys: 'Q',
    situation: 'auto-edit: edit / web_fetch / shell / MCP',
    ours: 'allow / allow / ask / ask',
    check: () => {
      expect(approve('auto-edit', 'edit', { file_path: 'src/a.ts' }).verdict).toBe('allow');
      expect(approve('auto-edit', 'web_fetch', { url: 'https://x.org' }).verdict).toBe('allow');
      expect(approve('auto-edit', 'shell', { command: 'npm install' }).verdict).toBe('ask');
      expect(approve('auto-edit', 'mcp__a__b', {}).verdict).toBe('ask');
    },
  },
  {
    n: 63,
    sys: 'Q',
    situation: 'plan: edit / fetch / exec / mcp',
    ours: 'deny / ask / deny / deny',
    check: () => {
      expect(approve('plan', 'edit', { file_path: 'a' }).verdict).toBe('deny');
      expect(approve('plan', 'web_fetch', { url: 'https://x.org' }).verdict).toBe('ask');
      expect(approve('plan', 'shell', { command: 'npm install' }).verdict).toBe('deny');
      expect(approve('plan', 'mcp__a__b', {}).verdict).toBe('deny');
    },
  },
  {
    n: 64,
    sys: 'Q',
    situation: 'plan + allow Edit + edit call',
    ours: 'denied: plan blocks cannot be lifted by allow rules',
    differs: true,
    check: () => {
      expect(approve('plan', 'edit', { file_path: 'a' }, { allow: ['Edit'] })).toMatchObject({
        verdict: 'deny',
        ruleId: 'mode.plan-blocked',
      });
    },
  },
  {
    n: 65,
    sys: 'Q',
    situation: 'untrusted folder, settings mode yolo',
    differs: true,
    ours: 'a session refuses to start (TrustGateError naming the file); reports show default with a notice',
    check: () => {
      const s = mergeAccessSettings(
        [{ level: 'user', path: '~/s.json', settings: { approvalMode: 'yolo' } }],
        false,
      );
      expect(s.approvalMode).toBe('default');
      expect(s.notices.join()).toMatch(/refused/);
      expect(s.refusedMode).toEqual({ mode: 'yolo', source: '~/s.json' });
      expect(() => resolveStartMode({ settings: s, trust: { trusted: false, folder: '/proj' } })).toThrow(
        /approval mode "yolo" from ~\/s\.json needs a trusted folder/,
      );
    },
  },
  {
    n: 66,
    sys: 'Q',
    situation: 'untrusted folder, switch to auto-edit',
    ours: 'TrustGateError',
    check: () => {
      expect(() => assertModeAllowed('auto-edit', false, '/proj')).toThrow(TrustGateError);
      expect(() => assertModeAllowed('plan', false, '/proj')).not.toThrow();
    },
  },
  {
    n: 67,
    sys: 'Q',
    situation: 'untrusted folder, project permissions.allow',
    ours: 'ignored',
    check: () => {
      const s = mergeAccessSettings(
        [
          {
            level: 'project',
            path: '/p/.twinline/settings.json',
            settings: { permissions: { allow: ['Bash'] } },
          },
        ],
        false,
      );
      expect(s.ruleSources).toEqual([]);
    },
  },
  {
    n: 68,
    sys: 'Q',
    situation: 'MCP server trust:true',
    ours: 'no server trust flag: MCP asks in default unless an allow rule names the server',
    differs: true,
    check: () => {
      expect(approve('default', 'mcp__gh__get', {}).verdict).toBe('ask');
      expect(approve('default', 'mcp__gh__get', {}, { allow: ['mcp__gh'] }).verdict).toBe('allow');
    },
  },
  {
    n: 69,
    sys: 'Q',
    situation: 'Bash(git diff:*) vs git diff / HEAD~1 / difftool / FOO=1 git diff',
    ours: 'T T F F (any variable assignment in front can change what the program runs: no allow rule approves it)',
    differs: true,
    check: () => {
      const e = (c: string) => ruleEffect({ allow: ['Bash(git diff:*)'] }, 'shell', { command: c });
      expect([e('git diff'), e('git diff HEAD~1'), e('git difftool'), e('FOO=1 git diff')]).toEqual([
        'allow',
        'allow',
        'none',
        'none',
      ]);
    },
  },
  {
    n: 70,
    sys: 'Q',
    situation: 'Bash(git diff) vs git diff --stat',
    ours: 'false (exact, as Claude Code; write git diff:* for a prefix)',
    differs: true,
    check: () => {
      expect(cmd('git diff', 'git diff --stat')).toBe(false);
    },
  },
  {
    n: 71,
    sys: 'Q',
    situation: 'Bash(npm run test:*) vs npm run test:unit',
    ours: 'false',
    check: () => {
      expect(cmd('npm run test:*', 'npm run test:unit')).toBe(false);
    },
  },
  {
    n: 72,
    sys: 'Q',
    situation: 'ls * vs lsof; ls* vs lsof',
    ours: 'false; true',
    check: () => {
      expect(cmd('ls *', 'lsof')).toBe(false);
      expect(cmd('ls*', 'lsof')).toBe(true);
    },
  },
  {
    n: 73,
    sys: 'Q',
    situation: 'Bash rule vs monitor',
    ours: 'no monitor tool; Bash names shell',
    differs: true,
    check: () => {
      const p = parseRule('Bash', 'allow');
      expect('rule' in p && p.rule.tool).toBe('shell');
    },
  },
  {
    n: 74,
    sys: 'Q',
    situation: 'Read(./secrets/**) vs read/grep/glob/ls on /proj/secrets/a.txt',
    ours: 'all match',
    check: () => {
      for (const t of ['read_file', 'grep', 'glob', 'list_directory']) {
        expect(ruleEffect({ deny: ['Read(./secrets/**)'] }, t, { path: '/proj/secrets/a.txt' })).toBe('deny');
      }
    },
  },
  {
    n: 75,
    sys: 'Q',
    situation: 'Read(/secrets/**), Read(//etc/**), Read(~/.ssh/**)',
    ours: 'all match (/ = project root)',
    check: () => {
      expect(ruleEffect({ deny: ['Read(/secrets/**)'] }, 'read_file', { file_path: '/proj/secrets/x' })).toBe(
        'deny',
      );
      expect(ruleEffect({ deny: ['Read(//etc/**)'] }, 'read_file', { file_path: '/etc/passwd' })).toBe(
        'deny',
      );
      expect(ruleEffect({ deny: ['Read(~/.ssh/**)'] }, 'read_file', { file_path: '~/.ssh/id_rsa' })).toBe(
        'deny',
      );
    },
  },
  {
    n: 76,
    sys: 'Q',
    situation: 'Edit(src/**) vs write_file / read_file',
    ours: 'true / false (no notebooks)',
    check: () => {
      expect(ruleEffect({ deny: ['Edit(src/**)'] }, 'write_file', { file_path: 'src/a.ts' })).toBe('deny');
      expect(ruleEffect({ deny: ['Edit(src/**)'] }, 'read_file', { file_path: 'src/a.ts' })).toBe('none');
    },
  },
  {
    n: 77,
    sys: 'Q',
    situation: 'Write(src/**) vs edit',
    ours: 'false',
    check: () => {
      expect(ruleEffect({ deny: ['Write(src/**)'] }, 'edit', { file_path: 'src/a.ts' })).toBe('none');
    },
  },
  {
    n: 78,
    sys: 'Q',
    situation: 'WebFetch domain rules',
    ours: 'T F T',
    check: () => {
      const e = (r: string, url: string) => ruleEffect({ deny: [r] }, 'web_fetch', { url });
      expect(e('WebFetch(domain:example.com)', 'https://api.example.com/x')).toBe('deny');
      expect(e('WebFetch(domain:example.com)', 'https://badexample.com/')).toBe('none');
      expect(e('WebFetch(example.com)', 'https://EXAMPLE.com/')).toBe('deny');
    },
  },
  {
    n: 79,
    sys: 'Q',
    situation: 'mcp__slack(post)',
    ours: 'refused as invalid (reported), never matches',
    check: () => {
      const set = rules({ deny: ['mcp__slack(post)'] });
      expect(set.warnings).toHaveLength(1);
      expect(ruleEffect({ deny: ['mcp__slack(post)'] }, 'mcp__slack__post', {})).toBe('none');
    },
  },
  {
    n: 80,
    sys: 'Q',
    situation: 'Agent(Explore) / Task(Explore)',
    ours: 'T / T; general-purpose F',
    check: () => {
      expect(ruleEffect({ deny: ['Agent(Explore)'] }, 'agent', { subagent_type: 'Explore' })).toBe('deny');
      expect(ruleEffect({ deny: ['Task(Explore)'] }, 'agent', { subagent_type: 'Explore' })).toBe('deny');
      expect(ruleEffect({ deny: ['Agent(Explore)'] }, 'agent', { subagent_type: 'general-purpose' })).toBe(
        'none',
      );
    },
  },
  {
    n: 81,
    sys: 'Q',
    situation: 'Agent(model:opus) vs {model:"OPUS"}',
    ours: 'true',
    check: () => {
      expect(ruleEffect({ deny: ['Agent(model:opus)'] }, 'agent', { model: 'OPUS' })).toBe('deny');
    },
  },
  {
    n: 82,
    sys: 'Q',
    situation: 'deny Bash(rm *) + allow Bash; rm -rf x',
    ours: 'deny',
    check: () => {
      expect(ruleEffect({ deny: ['Bash(rm *)'], allow: ['Bash'] }, 'shell', { command: 'rm -rf x' })).toBe(
        'deny',
      );
    },
  },
  {
    n: 83,
    sys: 'Q',
    situation: 'ask git push * + allow git *',
    ours: 'ask',
    check: () => {
      expect(
        ruleEffect({ ask: ['Bash(git push *)'], allow: ['Bash(git *)'] }, 'shell', {
          command: 'git push origin',
        }),
      ).toBe('ask');
    },
  },
  {
    n: 84,
    sys: 'Q',
    situation: 'deny mcp__github + allow mcp__github__get_issue',
    ours: 'deny',
    check: () => {
      expect(
        ruleEffect(
          { deny: ['mcp__github'], allow: ['mcp__github__get_issue'] },
          'mcp__github__get_issue',
          {},
        ),
      ).toBe('deny');
    },
  },
  {
    n: 85,
    sys: 'Q',
    situation: 'deny Read(./.env); grep path .env',
    ours: 'deny',
    check: () => {
      expect(ruleEffect({ deny: ['Read(./.env)'] }, 'grep', { pattern: 'x', path: '.env' })).toBe('deny');
    },
  },
  {
    n: 86,
    sys: 'Q',
    situation: 'deny Read(./.env); shell cat .env',
    ours: 'deny',
    check: () => {
      expect(ruleEffect({ deny: ['Read(./.env)'] }, 'shell', { command: 'cat .env' })).toBe('deny');
    },
  },
  {
    n: 87,
    sys: 'Q',
    situation: 'allow git checkout *; rm x && git checkout b',
    ours: 'not allowed → default mode asks',
    check: () => {
      expect(
        ruleEffect({ allow: ['Bash(git checkout *)'] }, 'shell', { command: 'rm x && git checkout b' }),
      ).toBe('none');
      expect(
        approve(
          'default',
          'shell',
          { command: 'rm x && git checkout b' },
          { allow: ['Bash(git checkout *)'] },
        ).verdict,
      ).toBe('ask');
    },
  },
  {
    n: 88,
    sys: 'Q',
    situation: 'rule "Bash(npm run test"',
    ours: 'ignored with a warning',
    check: () => {
      expect(rules({ allow: ['Bash(npm run test'] }).warnings[0]?.message).toMatch(/unbalanced/);
    },
  },
  {
    n: 89,
    sys: 'Q',
    situation: 'permissions.deny WebSearch',
    ours: 'removed from every agent',
    check: () => {
      const set = rules({ deny: ['WebSearch'] });
      expect(mainOf(ALL_BUILTINS, set).allowed.has('web_search')).toBe(false);
      expect(subTools(ALL_BUILTINS, { rules: set }).names).not.toContain('web_search');
    },
  },
  {
    n: 90,
    sys: 'Q',
    situation: 'auto mode with allow Bash(npx *)',
    ours: "rule honoured (no stash): auto is a rule-based classifier, the user's rules stay in force",
    differs: true,
    check: () => {
      expect(approve('auto', 'shell', { command: 'npx vitest' }, { allow: ['Bash(npx *)'] }).verdict).toBe(
        'allow',
      );
    },
  },
  {
    n: 91,
    sys: 'C',
    situation: 'global deny set',
    ours: 'task_output, enter/exit_plan_mode, ask_user (+ agent past depth)',
    differs: true,
    check: () => {
      expect([...GLOBAL_DENY_FOR_SPAWNED].sort()).toEqual([
        'ask_user',
        'enter_plan_mode',
        'exit_plan_mode',
        'task_output',
      ]);
    },
  },
  {
    n: 92,
    sys: 'C',
    situation: 'plan-mode sub-agent lacking ExitPlanMode',
    ours: 'never added: plan children return their plan as their result',
    differs: true,
    check: () => {
      expect(subTools(ALL_BUILTINS, { definition: { name: 'x', tools: ['read_file'] } }).names).toEqual([
        'read_file',
      ]);
    },
  },
  {
    n: 93,
    sys: 'C',
    situation: 'background custom agent',
    ours: 'built-in allowlist + MCP + domain tools',
    differs: true,
    check: () => {
      const { names } = subTools([...ALL_BUILTINS, 'mcp__a__b', 'calendar_list'], {
        position: { depth: 1, background: true },
      });
      expect(names).toEqual(
        [
          'calendar_list',
          'edit',
          'exec',
          'glob',
          'grep',
          'list_directory',
          'mcp__a__b',
          'read_file',
          'shell',
          'todo_write',
          'tool_call',
          'tool_search',
          'web_fetch',
          'web_search',
          'write_file',
        ].sort(),
      );
    },
  },
  {
    n: 94,
    sys: 'C',
    situation: "disallowedTools ['Bash(rm *)']",
    ours: 'shell kept, scoped deny',
    differs: true,
    check: () => {
      const { names, res } = subTools(ALL_BUILTINS, {
        definition: { name: 'x', disallowedTools: ['Bash(rm *)'] },
      });
      expect(names).toContain('shell');
      expect(res.scopedDenyRules).toEqual(['Bash(rm *)']);
    },
  },
  {
    n: 95,
    sys: 'C',
    situation: 'disallowed mcp__slack / mcp__slack__* / mcp__*',
    ours: 'slack / slack / all MCP removed',
    check: () => {
      const t = (p: string) => subTools(SLACK, { definition: { name: 'x', disallowedTools: [p] } }).names;
      expect(t('mcp__slack')).toEqual(['mcp__slackbot__post', 'read_file']);
      expect(t('mcp__slack__*')).toEqual(['mcp__slackbot__post', 'read_file']);
      expect(t('mcp__*')).toEqual(['read_file']);
    },
  },
  {
    n: 96,
    sys: 'C',
    situation: "tools ['*','Agent(worker, researcher)']",
    ours: 'wildcard + allowed agent types enforced at call time',
    check: () => {
      const s = stateFor(ALL_BUILTINS, { tools: ['*', 'Agent(worker, researcher)'] });
      expect(s.tools.has('read_file')).toBe(true);
      expect(s.allowedAgentTypes).toEqual(['worker', 'researcher']);
      expect(access(s, 'agent', { subagent_type: 'worker' }).verdict).toBe('allow');
      expect(access(s, 'agent', { subagent_type: 'other' }).ruleId).toBe('access.agent-type');
    },
  },
  {
    n: 97,
    sys: 'C',
    situation: "tools ['*','Read']",
    ours: 'wildcard (`*` anywhere means all)',
    differs: true,
    check: () => {
      expect(
        subTools(['read_file', 'grep'], { definition: { name: 'x', tools: ['*', 'Read'] } }).names,
      ).toEqual(['grep', 'read_file']);
    },
  },
  {
    n: 98,
    sys: 'C',
    situation: 'agent call mode auto from a default parent',
    ours: 'rejected',
    check: () => {
      expect(clampRequestedMode('auto', 'default')).toBeUndefined();
    },
  },
  {
    n: 99,
    sys: 'C',
    situation: 'mode plan from a yolo parent',
    ours: 'plan',
    check: () => {
      expect(clampRequestedMode('plan', 'yolo')).toBe('plan');
    },
  },
  {
    n: 100,
    sys: 'C',
    situation: 'definition plan, parent acceptEdits',
    ours: 'plan (a stricter definition is honoured)',
    differs: true,
    check: () => {
      expect(resolveSubagentMode('auto-edit', { approvalMode: 'plan' }, true)).toBe('plan');
    },
  },
  {
    n: 101,
    sys: 'C',
    situation: 'npm run test:* vs "npm run test -- --watch" / test:unit',
    ours: 'T / F',
    check: () => {
      expect(cmd('npm run test:*', 'npm run test -- --watch')).toBe(true);
      expect(cmd('npm run test:*', 'npm run test:unit')).toBe(false);
    },
  },
  {
    n: 102,
    sys: 'C',
    situation: 'Bash(npm run build) vs --prod',
    ours: 'false',
    check: () => {
      expect(cmd('npm run build', 'npm run build --prod')).toBe(false);
    },
  },
  {
    n: 103,
    sys: 'C',
    situation: 'Bash(ls *) vs ls',
    ours: 'true',
    check: () => {
      expect(cmd('ls *', 'ls')).toBe(true);
    },
  },
  {
    n: 104,
    sys: 'C',
    situation: 'Bash, Bash(), Bash(*)',
    ours: 'all whole-tool',
    check: () => {
      for (const r of ['Bash', 'Bash()', 'Bash(*)']) {
        const p = parseRule(r, 'deny');
        expect('rule' in p && p.rule.specifier).toBeUndefined();
      }
    },
  },
  {
    n: 105,
    sys: 'C',
    situation: 'mcp__github__get_* vs mcp__github__get_issue',
    ours: 'match',
    check: () => {
      expect(ruleEffect({ allow: ['mcp__github__get_*'] }, 'mcp__github__get_issue', {})).toBe('allow');
    },
  },
  {
    n: 106,
    sys: 'C',
    situation: 'ask Bash(npm publish:*) in bypass (yolo)',
    ours: 'ask',
    check: () => {
      expect(
        approve('yolo', 'shell', { command: 'npm publish --tag x' }, { ask: ['Bash(npm publish:*)'] })
          .verdict,
      ).toBe('ask');
    },
  },
  {
    n: 107,
    sys: 'C',
    situation: 'dontAsk, call not pre-approved',
    ours: 'dontAsk maps to default: foreground asks, background denies',
    differs: true,
    check: () => {
      expect(parseDef(`${base}\npermissionMode: dontAsk`).approvalMode).toBe('default');
      expect(approve('default', 'edit', { file_path: 'a' }, {}, undefined, true).verdict).toBe('deny');
    },
  },
  {
    n: 108,
    sys: 'C',
    situation: 'async sub-agent needs approval, no hooks',
    ours: 'denied with a reason',
    check: () => {
      const d = decideApproval({
        tool: 'edit',
        kind: 'edit',
        mode: 'default',
        rule: { effect: 'none' },
        readOnly: false,
        background: true,
      });
      expect(d).toMatchObject({ verdict: 'deny', ruleId: 'approval.background-no-prompt' });
    },
  },
];

function parseAgentText(text: string) {
  const dir = tmp();
  writeAgent(join(dir, '.twinline/agents'), 'a.md', text);
  const r = loadAgentDefinitions({ cwd: dir, homeDir: join(dir, 'nohome') });
  if (r.errors[0]) throw r.errors[0];
  return r.definitions[0];
}
function fakeRequest(): ApprovalRequest {
  return {
    call: { id: 'c1', name: 'shell', arguments: { command: 'rm -rf build' } },
    args: { command: 'rm -rf build' },
  } as unknown as ApprovalRequest;
}

describe('sub-agent permission conformance table', () => {
  it('covers every row 1–108 exactly once', () => {
    expect(ROWS.map((r) => r.n)).toEqual(Array.from({ length: 108 }, (_, i) => i + 1));
  });
  it.each(
    ROWS.map(
      (r) => [`#${r.n} ${r.sys}${r.differs ? ' [DIFFERS]' : ''} ${r.situation} → ${r.ours}`, r] as const,
    ),
  )('%s', async (_title, row) => {
    await row.check();
  });
});
