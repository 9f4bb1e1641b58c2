import { describe, expect, it } from 'vitest';
import {
  APPROVAL_MODES,
  type ApprovalMode,
  decideApproval,
  MODE_TABLE,
  resolveSubagentMode,
} from '../../src/access/index.js';
import type { ToolKind } from '../../src/tools/index.js';
import { approve } from './fixtures.js';

/**
 * The modes table as the docs print it (docs/access.md, "Approval modes"): per kind, per mode,
 * the verdict for a read-only call / a mutating call. `auto` edit cells are for a safe in-project
 * path / a protected one; `auto` shell for read-only / destructive; `auto` domain/mcp: read-only
 * or low risk / high risk.
 */
const EXPECTED = `
kind     plan         default      auto-edit    auto         yolo         bubble
read     allow/allow  allow/allow  allow/allow  allow/allow  allow/allow  allow/allow
edit     deny/deny    ask/ask      allow/allow  allow/ask    allow/allow  ask/ask
shell    allow/deny   allow/ask    allow/ask    allow/deny   allow/allow  allow/ask
fetch    ask/ask      ask/ask      allow/allow  allow/allow  allow/allow  ask/ask
mcp      ask/deny     ask/ask      ask/ask      allow/ask    allow/allow  ask/ask
agent    ask/ask      ask/ask      allow/allow  allow/allow  allow/allow  ask/ask
domain   allow/deny   allow/ask    allow/ask    allow/ask    allow/allow  allow/ask
control  allow/allow  allow/allow  allow/allow  allow/allow  allow/allow  allow/allow
`;

type V = 'allow' | 'ask' | 'deny';
const [header = '', ...body] = EXPECTED.trim().split('\n');
const modes = header.split(/\s+/).slice(1) as ApprovalMode[];
const rows = body.flatMap((line) => {
  const [kind, ...cells] = line.split(/\s+/);
  return cells.map((cell, i) => [kind as ToolKind, modes[i]!, cell.split('/') as [V, V]] as const);
});

describe('approval modes × tool kinds', () => {
  it('the table covers every kind and mode', () => {
    expect([...modes].sort()).toEqual([...APPROVAL_MODES].sort());
    expect(new Set(rows.map(([kind, mode]) => `${kind} ${mode}`)).size).toBe(
      Object.keys(MODE_TABLE).length * APPROVAL_MODES.length,
    );
  });

  it.each(rows)('%s in %s → %j', (kind, mode, [ro, mut]) => {
    const calm = {
      tool: 't',
      kind,
      mode,
      rule: { effect: 'none' as const },
      readOnly: true,
      destructive: false,
      riskLevel: 'low' as const,
      safeEditTarget: true,
    };
    const wild = {
      ...calm,
      readOnly: false,
      destructive: true,
      riskLevel: 'high' as const,
      safeEditTarget: false,
    };
    expect(decideApproval(calm).verdict).toBe(ro);
    expect(decideApproval(wild).verdict).toBe(mut);
  });

  it.each(APPROVAL_MODES)('rules first in %s: deny → deny, ask → ask', (mode) => {
    for (const kind of Object.keys(MODE_TABLE) as ToolKind[]) {
      const base = { tool: 't', kind, mode, readOnly: true };
      expect(
        decideApproval({ ...base, rule: { effect: 'deny', rule: { text: 'x', effect: 'deny', tool: 't' } } })
          .verdict,
      ).toBe('deny');
      expect(
        decideApproval({ ...base, rule: { effect: 'ask', rule: { text: 'x', effect: 'ask', tool: 't' } } })
          .verdict,
      ).toBe('ask');
    }
  });

  it('allow rules lift asks but never plan blocks', () => {
    expect(approve('default', 'edit', { file_path: 'a' }, { allow: ['Edit'] }).verdict).toBe('allow');
    expect(approve('plan', 'edit', { file_path: 'a' }, { allow: ['Edit'] }).verdict).toBe('deny');
    expect(approve('plan', 'shell', { command: 'npm test' }, { allow: ['Bash(npm test)'] }).verdict).toBe(
      'deny',
    );
    expect(approve('plan', 'shell', { command: 'git status' }).verdict).toBe('allow');
  });

  it('reads outside the project ask (except yolo), in-project reads run; read-only shell too', () => {
    // [tool, arguments, verdict ('asked': ask or deny, never allow)]
    const calls: [string, Record<string, string>, 'ask' | 'allow' | 'asked'][] = [
      ['read_file', { file_path: '~/.ssh/id_rsa' }, 'ask'],
      ['grep', { pattern: 'x', path: '/etc' }, 'ask'],
      ['read_file', { file_path: 'src/a.ts' }, 'allow'],
      ['shell', { command: 'cat ~/.ssh/id_rsa' }, 'asked'],
      ['shell', { command: 'cd /etc && cat passwd' }, 'asked'],
      ['shell', { command: 'ls /' }, 'asked'],
      ['shell', { command: 'cat README.md | wc -l' }, 'allow'],
    ];
    for (const mode of ['plan', 'default', 'auto-edit', 'auto', 'bubble'] as const) {
      for (const [tool, args, expected] of calls) {
        const { verdict } = approve(mode, tool, args);
        if (expected === 'asked')
          expect(verdict, `${mode} ${tool} ${JSON.stringify(args)}`).not.toBe('allow');
        else expect(verdict, `${mode} ${tool} ${JSON.stringify(args)}`).toBe(expected);
      }
    }
    expect(approve('yolo', 'read_file', { file_path: '/etc/passwd' }).verdict).toBe('allow');
  });

  it('auto edits: inside the project on unprotected paths only', () => {
    expect(approve('auto', 'edit', { file_path: 'src/a.ts' }).verdict).toBe('allow');
    expect(approve('auto', 'edit', { file_path: '.git/info/exclude' }).verdict).toBe('ask');
    // A VCS control path makes git run code: no mode writes it (the built-in engine-state deny).
    expect(approve('auto', 'edit', { file_path: '.git/config' })).toMatchObject({
      verdict: 'deny',
      ruleId: 'access.engine-state',
    });
    expect(approve('auto', 'write_file', { file_path: 'package.json' }).verdict).toBe('ask');
    expect(approve('auto', 'write_file', { file_path: '../elsewhere/a.ts' }).verdict).toBe('ask');
    expect(approve('auto', 'edit', { file_path: '/etc/hosts' }).verdict).toBe('ask');
  });

  it('a background caller never waits: ask → deny, except bubble', () => {
    for (const mode of APPROVAL_MODES) {
      const d = approve(mode, 'edit', { file_path: '.git/x' }, { ask: ['Edit'] }, undefined, true);
      expect(d.verdict).toBe(mode === 'bubble' ? 'ask' : 'deny');
    }
  });
});

describe('sub-agent mode table, row by row (policy qwen-compatible) and our narrow policy', () => {
  // [parent, definition mode, trusted, qwen-compatible, narrow]
  const table: [ApprovalMode, ApprovalMode | undefined, boolean, ApprovalMode, ApprovalMode][] = [
    // row 1: parent yolo / auto-edit / auto wins even over a stricter definition
    ['yolo', 'plan', true, 'yolo', 'plan'],
    ['auto-edit', 'plan', true, 'auto-edit', 'plan'],
    ['auto', 'default', true, 'auto', 'default'],
    ['yolo', undefined, true, 'yolo', 'yolo'],
    ['auto', undefined, false, 'auto', 'default'],
    // row 2: other parent + explicit definition mode → the definition's, after the trust check
    ['default', 'plan', true, 'plan', 'plan'],
    ['default', 'auto-edit', true, 'auto-edit', 'default'],
    ['plan', 'yolo', true, 'yolo', 'plan'],
    ['default', 'bubble', true, 'default', 'bubble'],
    // row 3: no definition mode, plan parent → plan
    ['plan', undefined, true, 'plan', 'plan'],
    ['plan', undefined, false, 'plan', 'plan'],
    // row 4: no definition mode, default parent, trusted → auto-edit
    ['default', undefined, true, 'auto-edit', 'default'],
    // row 5: untrusted refuses a privileged definition mode → parent
    ['default', 'yolo', false, 'default', 'default'],
    ['default', 'auto', false, 'default', 'default'],
    ['plan', 'auto-edit', false, 'plan', 'plan'],
    ['default', undefined, false, 'default', 'default'],
  ];
  it.each(table)(
    'parent %s, definition %s, trusted %s → qwen %s / narrow %s',
    (parent, def, trusted, qwen, narrow) => {
      expect(
        resolveSubagentMode(parent, { ...(def ? { approvalMode: def } : {}) }, trusted, 'qwen-compatible'),
      ).toBe(qwen);
      expect(resolveSubagentMode(parent, { ...(def ? { approvalMode: def } : {}) }, trusted, 'narrow')).toBe(
        narrow,
      );
    },
  );
});
