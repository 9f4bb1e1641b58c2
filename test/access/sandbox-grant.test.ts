import { describe, expect, it } from 'vitest';
import { compileRuleSet, networkAllowanceOf } from '../../src/access/index.js';
import { commandSubject } from '../../src/tools/index.js';
import { approve, ROOTS } from './fixtures.js';

/** A shell manifest whose sandbox is (or is not) available, as the real shell tool declares it. */
const shellSpec = (available: boolean) => ({
  kind: 'shell' as const,
  annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  riskLevel: 'medium' as const,
  sandbox: { available: () => available, describe: () => (available ? 'sandbox' : 'no sandbox') },
  permissionSubject: commandSubject,
});

describe('the sandbox profile follows the approval', () => {
  // [mode, command, rules, verdict, profile]
  const table: [string, string, Record<string, string[]>, string, string | undefined][] = [
    ['default', 'cat README.md', {}, 'allow', 'read-only'],
    ['default', 'npm test', {}, 'ask', 'workspace-write'],
    ['default', 'npm test', { allow: ['Bash(npm test)'] }, 'allow', 'workspace-write'],
    ['default', 'cat README.md', { ask: ['Bash(cat:*)'] }, 'ask', 'workspace-write'],
    ['plan', 'cat README.md', {}, 'allow', 'read-only'],
    ['plan', 'npm test', { allow: ['Bash(npm test)'] }, 'deny', undefined],
    ['auto-edit', 'git status', {}, 'allow', 'read-only'],
    ['auto', 'npm test', {}, 'ask', 'workspace-write'],
    ['auto', 'rm -rf build', {}, 'deny', undefined],
    ['yolo', 'git log -1', {}, 'allow', 'read-only'],
    ['yolo', 'npm test', {}, 'allow', 'workspace-write'],
    ['yolo', 'curl https://example.com', { allow: ['WebFetch(domain:example.com)'] }, 'allow', 'network'],
    ['default', 'cat README.md', { allow: ['WebFetch(domain:example.com)'] }, 'allow', 'read-only'],
    ['plan', 'cat README.md', { allow: ['WebFetch'] }, 'allow', 'read-only'],
    ['yolo', 'npm i', { allow: ['WebFetch'], deny: ['WebFetch(domain:evil.test)'] }, 'allow', 'network'],
    ['yolo', 'npm i', { allow: ['WebFetch(domain:a.test)'], deny: ['WebFetch'] }, 'allow', 'workspace-write'],
  ];
  it.each(table)('%s: %s %j → %s under %s', (mode, command, rules, verdict, profile) => {
    const d = approve(mode as never, 'shell', { command }, rules, shellSpec(true));
    expect(d.verdict).toBe(verdict);
    expect(d.sandbox?.profile).toBe(profile);
  });

  it('network carries the domains of the web rules, denied ones apart', () => {
    const d = approve(
      'yolo',
      'shell',
      { command: 'npm i' },
      {
        allow: ['WebFetch(domain:registry.npmjs.org)', 'web_fetch(domain:*.github.com)'],
        deny: ['WebFetch(domain:gist.github.com)'],
      },
      shellSpec(true),
    );
    expect(d.sandbox).toEqual({
      profile: 'network',
      allowedDomains: ['registry.npmjs.org', 'github.com'],
      deniedDomains: ['gist.github.com'],
    });
    expect(networkAllowanceOf(compileRuleSet([], ROOTS))).toEqual({ allowed: [], denied: [] });
  });
});

describe('no sandbox: fail closed', () => {
  it.each([
    ['default', 'cat README.md', {}],
    ['auto-edit', 'git status', {}],
    ['auto', 'cat README.md', {}],
    ['yolo', 'npm test', {}],
    ['default', 'npm test', { allow: ['Bash(npm test)'] }],
  ] as const)('%s: %s asks to run unconfined', (mode, command, rules) => {
    const d = approve(mode, 'shell', { command }, rules, shellSpec(false));
    expect(d).toMatchObject({
      verdict: 'ask',
      ruleId: 'sandbox.unavailable',
      sandbox: { profile: 'unconfined' },
    });
    expect(d.reason).toMatch(/No sandbox can be created here/);
  });

  it('plan mode and background agents, which cannot ask, deny', () => {
    expect(approve('plan', 'shell', { command: 'cat README.md' }, {}, shellSpec(false))).toMatchObject({
      verdict: 'deny',
      ruleId: 'sandbox.unavailable',
    });
    expect(approve('default', 'shell', { command: 'ls' }, {}, shellSpec(false), true)).toMatchObject({
      verdict: 'deny',
      ruleId: 'sandbox.unavailable',
    });
  });

  it('a deny rule still denies first', () => {
    expect(
      approve('yolo', 'shell', { command: 'rm -rf x' }, { deny: ['Bash(rm:*)'] }, shellSpec(false)).ruleId,
    ).toBe('permission.deny');
  });

  it('a shell manifest that declares no sandbox is treated as unconfined', () => {
    const { sandbox: _none, ...bare } = shellSpec(true);
    expect(approve('default', 'shell', { command: 'cat README.md' }, {}, bare).verdict).toBe('ask');
  });
});
