import { describe, expect, it } from 'vitest';
import { compileRuleSet, type PermissionUpdate, planPermissionUpdate } from '../../src/access/index.js';

const roots = { projectRoot: '/p', cwd: '/p', home: '/h' };
const managed = compileRuleSet([{ source: 'managed', deny: ['shell(rm:*)', 'web_fetch'] }], roots);
const trusted = { trusted: true, folder: '/p', managed, managedOnly: false };
const untrusted = { ...trusted, trusted: false };

const rules = (
  toolName: string,
  behavior: 'allow' | 'deny' | 'ask',
  destination: PermissionUpdate['destination'],
  ruleContent?: string,
): PermissionUpdate => ({
  type: 'addRules',
  rules: [{ toolName, ...(ruleContent ? { ruleContent } : {}) }],
  behavior,
  destination,
});

describe('planPermissionUpdate (a host\'s "always allow")', () => {
  it.each([
    [
      'a session allow',
      rules('Write', 'allow', 'session'),
      trusted,
      { kind: 'rules', level: undefined, rules: ['Write'] },
    ],
    [
      'a local-settings allow, trusted',
      rules('Bash', 'allow', 'localSettings', 'npm test'),
      trusted,
      { kind: 'rules', level: 'local' },
    ],
    [
      'a user-settings allow, untrusted',
      rules('Read', 'allow', 'userSettings'),
      untrusted,
      { kind: 'rules', level: 'user' },
    ],
    ['a deny anywhere managed denies', rules('web_fetch', 'deny', 'session'), trusted, { kind: 'rules' }],
    [
      'a literal command the managed deny does not cover',
      rules('Bash', 'allow', 'session', 'ls -la'),
      trusted,
      { kind: 'rules' },
    ],
    [
      'a session default mode',
      { type: 'setMode', mode: 'plan', destination: 'session' } as const,
      untrusted,
      { kind: 'mode', mode: 'plan' },
    ],
  ])('%s is applied', (_name, update, ctx, expected) => {
    expect(planPermissionUpdate(update as PermissionUpdate, ctx)).toMatchObject(expected);
  });

  it.each([
    [
      'project settings in an untrusted folder',
      rules('Write', 'allow', 'projectSettings'),
      untrusted,
      /not trusted/,
    ],
    [
      'local settings in an untrusted folder',
      rules('Write', 'deny', 'localSettings'),
      untrusted,
      /not trusted/,
    ],
    [
      'an allow a managed whole-tool deny covers',
      rules('WebFetch', 'allow', 'session'),
      trusted,
      /managed settings deny web_fetch/,
    ],
    [
      'a literal command a managed deny covers',
      rules('Bash', 'allow', 'userSettings', 'rm -rf /'),
      trusted,
      /shell\(rm:\*\)/,
    ],
    [
      'a whole-tool allow where managed denies some of it',
      rules('Bash', 'allow', 'session'),
      trusted,
      /could cover/,
    ],
    ['a pattern rule written to a file', rules('*', 'allow', 'userSettings'), trusted, /must name a tool/],
    ['a rule that does not parse', rules('Bash(', 'allow', 'session'), trusted, /does not parse/],
    [
      'an allow when only managed rules count',
      rules('Read', 'allow', 'session'),
      { ...trusted, managedOnly: true },
      /only managed/,
    ],
    [
      'a privileged mode in an untrusted folder',
      { type: 'setMode', mode: 'bypassPermissions', destination: 'session' } as const,
      untrusted,
      /trusted folder/,
    ],
    [
      'a sub-agent mode',
      { type: 'setMode', mode: 'bubble', destination: 'session' } as const,
      trusted,
      /not a mode/,
    ],
    [
      'extra directories',
      { type: 'addDirectories', directories: ['/etc'], destination: 'session' } as const,
      trusted,
      /working folder/,
    ],
  ])('%s is refused', (_name, update, ctx, reason) => {
    const plan = planPermissionUpdate(update as PermissionUpdate, ctx);
    expect(plan.kind).toBe('refused');
    expect(plan.kind === 'refused' && plan.reason).toMatch(reason);
  });
});
