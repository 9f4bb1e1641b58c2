import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  APPROVAL_MODES,
  type ApprovalMode,
  approvalFor,
  BUILTIN_TOOL_NAMES,
  checkAccess,
  compileRuleSet,
  extendRuleSet,
  GLOBAL_DENY_FOR_SPAWNED,
  isModeWithin,
  PRIVILEGED_MODES,
  type ResolvedAgentTools,
  resolveAgentTools,
  resolveSubagentMode,
} from '../../src/access/index.js';
import { builtinSpec, ROOTS } from './fixtures.js';

const EXTRA = [
  'mcp__slack__post',
  'mcp__slack__read',
  'mcp__gh__get_issue',
  'mcp__gh__create',
  'calendar_list',
  'hr_salary',
];
const UNIVERSE = [...BUILTIN_TOOL_NAMES, ...EXTRA];
const PATTERNS = [
  ...UNIVERSE,
  '*',
  'mcp__slack',
  'mcp__gh__get*',
  'mcp__*',
  'Read',
  'Bash',
  'Bash(rm *)',
  'shell(git push:*)',
  'Agent(worker)',
  'task_*',
];

const definitionArb = fc.record({
  tools: fc.option(fc.subarray(PATTERNS, { maxLength: 8 }), { nil: undefined }),
  disallowedTools: fc.option(fc.subarray(PATTERNS, { maxLength: 4 }), { nil: undefined }),
  approvalMode: fc.option(fc.constantFrom(...APPROVAL_MODES), { nil: undefined }),
  background: fc.boolean(),
  teammate: fc.boolean(),
});

/** A chain of nested agents from the main agent down (a path through a random tree). */
const treeArb = fc.record({
  available: fc.subarray(UNIVERSE, { minLength: 1 }),
  deny: fc.subarray(['WebSearch', 'mcp__gh', 'Bash(curl *)', 'hr_salary', 'Read(./.env)'], { maxLength: 3 }),
  mainMode: fc.constantFrom<ApprovalMode>('plan', 'default', 'auto-edit', 'auto', 'yolo'),
  trusted: fc.boolean(),
  maxDepth: fc.integer({ min: 0, max: 6 }),
  chain: fc.array(definitionArb, { minLength: 1, maxLength: 6 }),
  probe: fc.constantFrom(...UNIVERSE, 'no_such_tool'),
});

describe('access invariants (fast-check)', () => {
  it('no sub-agent gains a tool or a mode its parent lacks; global-deny tools never reach spawned agents', () => {
    fc.assert(
      fc.property(treeArb, (t) => {
        const rules = compileRuleSet([{ source: 'settings', deny: t.deny }], ROOTS);
        let parent: ResolvedAgentTools = resolveAgentTools({
          available: t.available,
          rules,
          maxDepth: t.maxDepth,
        });
        let parentMode: ApprovalMode =
          t.trusted || !PRIVILEGED_MODES.has(t.mainMode) ? t.mainMode : 'default';
        let parentRules = rules;
        for (const [i, def] of t.chain.entries()) {
          const depth = i + 1;
          const child = resolveAgentTools({
            available: t.available,
            parent,
            position: { depth, background: def.background, teammate: def.teammate },
            definition: { name: `a${depth}`, ...def },
            rules,
            maxDepth: t.maxDepth,
          });
          for (const name of child.allowed) expect(parent.allowed.has(name)).toBe(true);
          for (const name of GLOBAL_DENY_FOR_SPAWNED) expect(child.allowed.has(name)).toBe(false);
          if (child.allowed.has('agent')) expect(depth + 1).toBeLessThanOrEqual(t.maxDepth);
          // the parent's scoped denies carry down
          for (const r of parent.scopedDenyRules) expect(child.scopedDenyRules).toContain(r);

          const mode = resolveSubagentMode(parentMode, def, t.trusted, 'narrow');
          expect(isModeWithin(mode, parentMode)).toBe(true);
          if (!t.trusted) expect(PRIVILEGED_MODES.has(mode)).toBe(false);

          // invocation agrees with resolution: what is not in the set is refused with one answer
          const childRules = extendRuleSet(parentRules, [{ source: 'agent', deny: child.scopedDenyRules }]);
          const state = {
            agentName: `a${depth}`,
            tools: child.allowed,
            rules: childRules,
            mode,
            background: def.background,
            depth,
          };
          const d = checkAccess(state, t.probe, {}, builtinSpec);
          if (!child.allowed.has(t.probe)) {
            expect(d).toMatchObject({
              verdict: 'deny',
              ruleId: 'tool.unavailable',
              reason: `Tool ${t.probe} is not available.`,
            });
          }
          // the bridge never reaches beyond the set
          if (child.allowed.has('tool_call') && !child.allowed.has(t.probe)) {
            expect(checkAccess(state, 'tool_call', { name: t.probe }, builtinSpec).verdict).toBe('deny');
          }
          parent = child;
          parentMode = mode;
          parentRules = childRules;
        }
      }),
      { numRuns: 400 },
    );
  });

  it('hostile input never throws: any command line, any arguments', () => {
    const set = compileRuleSet(
      [
        {
          source: 's',
          allow: ['shell(git status:*)', 'Read(./src/**)'],
          ask: ['shell(git push *)'],
          deny: ['Read(./.env)', 'shell(rm *)', 'WebFetch(domain:evil.com)'],
        },
      ],
      ROOTS,
    );
    const state = {
      agentName: 'x',
      tools: new Set(UNIVERSE),
      rules: set,
      mode: 'auto' as const,
      background: true,
      depth: 1,
    };
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.stringMatching(/^[a-z $();|&<>'"`\\\n#{}=*-]{0,40}$/)),
        fc.anything(),
        fc.constantFrom(...UNIVERSE, 'no_such_tool'),
        (command, args, tool) => {
          const shell = checkAccess(state, 'shell', { command }, builtinSpec);
          expect(['allow', 'deny']).toContain(shell.verdict);
          // an unquoted, uncommented `rm ` after a separator is always seen
          if (!/['"\\#]/.test(command) && /(^|[;&|(\n`]\s*)rm /.test(command))
            expect(shell.verdict).not.toBe('allow');
          expect(() => checkAccess(state, tool, args, builtinSpec)).not.toThrow();
          expect(() => approvalFor(state, tool, args, undefined)).not.toThrow();
          expect(() =>
            checkAccess(state, 'tool_call', { name: tool, arguments: args }, builtinSpec),
          ).not.toThrow();
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('qwen-compatible never escalates in an untrusted folder beyond the parent', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<ApprovalMode>('plan', 'default'),
        fc.option(fc.constantFrom(...APPROVAL_MODES), { nil: undefined }),
        (parent, def) => {
          const m = resolveSubagentMode(parent, def, false, 'qwen-compatible');
          expect(PRIVILEGED_MODES.has(m)).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });
});
