import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type AccessState,
  APPROVAL_MODES,
  approvalFor,
  checkAccess,
  compileRuleSet,
  ENGINE_STATE_RULE_ID,
  engineStatePaths,
  evaluateRules,
  isEngineStatePath,
  type PathRoots,
  shellNamesEngineState,
} from '../../src/access/index.js';
import type { Identity } from '../../src/core/index.js';
import { createEditTool, createWriteFileTool, protectedPathCheck } from '../../src/tools/workspace/index.js';
import { builtinSpec, subjectOf } from './fixtures.js';

const ROOTS: PathRoots = {
  projectRoot: '/proj',
  cwd: '/proj',
  home: '/home/u',
  stateFiles: ['/var/lib/twinline/audit.db', '/etc/twinline/watermark.key'],
};
const STATE = { projectRoot: '/proj', home: '/home/u', files: ROOTS.stateFiles };

// path as a call may write it, protected?
const PATHS: [string, boolean][] = [
  ['.twinline/settings.json', true],
  ['./.twinline/settings.json', true],
  ['.twinline', true],
  ['.twinline/', true],
  ['.twinline//settings.json', true],
  ['.twinline/settings.json/', true],
  ['a/b/../../.twinline/settings.local.json', true],
  ['.TWINLINE/SETTINGS.JSON', true],
  ['/proj/.twinline/agents/x.md', true],
  ['/proj/../proj/.twinline/twinline.sqlite-shm', true],
  ['~/.twinline/trustedFolders.json', true],
  ['/home/u/.twinline/settings.json', true],
  ['.claude/settings.json', true],
  ['.claude/settings.local.json', true],
  ['.qwen/settings.json', true],
  ['~/.claude/settings.json', true],
  ['/var/lib/twinline/audit.db', true],
  ['/var/lib/twinline/audit.db-wal', true],
  ['/var/lib/twinline/audit.db-journal', true],
  ['/etc/twinline/watermark.key', true],
  // not engine state
  ['.twinline-notes/settings.json', false],
  ['docs/.twinline.md', false],
  ['src/settings.json', false],
  ['.claude/commands/x.md', false],
  ['/var/lib/twinline/audit.dbx', false],
  ['/home/u/notes.txt', false],
];

const identity: Identity = { tenant: 't', user: 'u', roles: ['developer'], dataLevel: 'L1', attributes: {} };
void identity;

function state(mode: AccessState['mode'], allow: string[] = []): AccessState {
  return {
    agentName: 'main',
    tools: new Set(['write_file', 'edit', 'shell', 'read_file', 'tool_call', 'notebook_writer']),
    rules: compileRuleSet([{ source: 'host', allow }], ROOTS),
    mode,
    background: false,
    depth: 0,
  };
}

describe('engine state: one list, matched lexically with every path trick', () => {
  it('lists the state folders, host settings and configured files with their journals', () => {
    const paths = engineStatePaths(STATE).map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/proj/.twinline',
        '/home/u/.twinline',
        '/proj/.claude/settings.json',
        '/var/lib/twinline/audit.db',
        '/var/lib/twinline/audit.db-wal',
        '/var/lib/twinline/audit.db-shm',
      ]),
    );
  });

  it.each(PATHS)('write_file %s → refused: %s', (path, refused) => {
    for (const mode of APPROVAL_MODES) {
      const access = checkAccess(
        state(mode, ['Write', 'Edit', 'write_file(**)']),
        'write_file',
        { path, content: 'x' },
        builtinSpec,
      );
      expect(access.ruleId === ENGINE_STATE_RULE_ID, `${mode}: ${access.ruleId}`).toBe(refused);
      if (refused) expect(access.verdict).toBe('deny');
      const approval = approvalFor(state(mode, ['Write']), 'write_file', { path, content: 'x' }, undefined);
      expect(approval.ruleId === ENGINE_STATE_RULE_ID, mode).toBe(refused);
    }
  });

  it('checks every path argument, the bridge target, and manifests that declare kind edit', () => {
    const s = state('yolo', ['Write', 'tool_call']);
    expect(
      checkAccess(s, 'write_file', { path: 'ok.txt', file_path: '.twinline/settings.json' }, builtinSpec)
        .ruleId,
    ).toBe(ENGINE_STATE_RULE_ID);
    expect(
      checkAccess(
        s,
        'tool_call',
        { name: 'write_file', arguments: { path: '.twinline/settings.json', content: '{}' } },
        builtinSpec,
      ).ruleId,
    ).toBe(ENGINE_STATE_RULE_ID);
    const spec = {
      kind: 'edit' as const,
      annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
      riskLevel: 'low' as const,
    };
    expect(approvalFor(s, 'notebook_writer', { target: '~/.twinline/settings.json' }, spec).ruleId).toBe(
      ENGINE_STATE_RULE_ID,
    );
    expect(approvalFor(s, 'notebook_writer', { target: 'notes/today.md' }, spec).verdict).toBe('allow');
  });

  it('property: any spelling that resolves into .twinline is refused', () => {
    const segment = fc.constantFrom('a', 'b', 'src', 'x y');
    fc.assert(
      fc.property(
        fc.array(segment, { maxLength: 3 }),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom('settings.json', 'agents/a.md', 'twinline.sqlite'),
        (detour, upper, dot, file) => {
          const up = detour.map(() => '..');
          const dir = upper ? '.TwinLine' : '.twinline';
          const path = [...(dot ? ['.'] : []), ...detour, ...up, dir, file].join('/');
          expect(isEngineStatePath(`/proj/${path}`, STATE)).toBeDefined();
          expect(
            checkAccess(state('yolo', ['Write']), 'write_file', { path, content: '' }, builtinSpec).ruleId,
          ).toBe(ENGINE_STATE_RULE_ID);
        },
      ),
      { numRuns: 200, seed: 1617 },
    );
  });

  it('a shell line naming engine state asks in every mode, even with Bash allowed', () => {
    const lines = [
      'echo {} > .twinline/settings.json',
      'cp evil.json "./.Twinline/settings.local.json"',
      'cat ~/.twinline/trustedFolders.json',
      'sqlite3 /var/lib/twinline/audit.db "delete from audit_records"',
      'cd .twinline && rm -f twinline.sqlite',
    ];
    for (const command of lines) {
      expect(shellNamesEngineState(command, ROOTS), command).toBe(true);
      for (const mode of APPROVAL_MODES) {
        const d = approvalFor(
          state(mode, ['Bash']),
          'shell',
          { command },
          undefined,
          false,
          subjectOf('shell', { command }),
        );
        expect(d.verdict, `${mode}: ${command}`).toBe('ask');
        expect(d.ruleId).toBe(`${ENGINE_STATE_RULE_ID}.shell`);
      }
    }
    expect(shellNamesEngineState('ls src && cat README.md', ROOTS)).toBe(false);
    const ls = { command: 'ls src' };
    expect(evaluateRules(state('yolo', ['Bash']).rules, 'shell', ls, subjectOf('shell', ls)).effect).toBe(
      'allow',
    );
    // a deny rule still wins over the built-in ask
    const denied = compileRuleSet([{ source: 's', deny: ['Bash(cat *)'] }], ROOTS);
    const cat = { command: 'cat .twinline/settings.json' };
    expect(evaluateRules(denied, 'shell', cat, subjectOf('shell', cat)).effect).toBe('deny');
  });
});

describe('the write tools refuse engine state on the real path (symlinks)', () => {
  const base = mkdtempSync(join(tmpdir(), 'twinline-state-tools-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const project = join(base, 'proj');
  mkdirSync(join(project, '.twinline'), { recursive: true });
  writeFileSync(join(project, '.twinline', 'settings.json'), '{"permissions":{"deny":["Bash"]}}');
  symlinkSync(join(project, '.twinline'), join(project, 'state'));
  mkdirSync(join(project, 'deep', 'er'), { recursive: true });
  symlinkSync(join(project, '.twinline'), join(project, 'deep', 'er', 'hidden'));
  symlinkSync(join(project, '.twinline', 'settings.json'), join(project, 'settings-link.json'));
  const options = {
    root: project,
    protectedWrite: protectedPathCheck(engineStatePaths({ projectRoot: project, home: join(base, 'home') })),
  };
  const ctx = { identity, sessionId: 's', callId: 'c', signal: new AbortController().signal, cwd: project };
  const write = createWriteFileTool(options);
  const edit = createEditTool(options);

  it.each([
    'state/settings.json',
    'deep/er/hidden/settings.json',
    'settings-link.json',
    'state/agents/new.md',
  ])('write_file %s is refused after resolving links', async (path) => {
    await expect(write.execute({ path, content: '{}' }, ctx)).rejects.toMatchObject({
      code: 'workspace.path-protected',
    });
    await expect(edit.execute({ path, oldString: 'deny', newString: 'allow' }, ctx)).rejects.toMatchObject({
      code: expect.stringMatching(/^workspace\.path-protected$|^workspace\.edit/),
    });
    expect(readFileSync(join(project, '.twinline', 'settings.json'), 'utf8')).toContain('deny');
  });

  it('writes elsewhere as before', async () => {
    await expect(write.execute({ path: 'notes.txt', content: 'ok' }, ctx)).resolves.toMatchObject({
      created: true,
    });
  });
});
