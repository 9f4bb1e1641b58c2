import { describe, expect, it } from 'vitest';
import { compileRuleSet, evaluateRules, parseRule } from '../../src/access/index.js';
import type { PermissionSubjectKind } from '../../src/core/index.js';
import { BUILTIN_SPECS, ROOTS, subjectOf } from './fixtures.js';

/** The subject each specifier kind of the rule language is written for (docs/access.md, "Syntax"). */
const SUBJECT_OF_KIND: Record<string, PermissionSubjectKind | undefined> = {
  command: 'command',
  path: 'path',
  domain: 'host',
  'agent-type': 'agentType',
  params: undefined,
};

/** A specifier of the kind the rule language gives each shipped tool's rules. */
const SAMPLE_SPECIFIER: Record<string, string> = {
  shell: 'git status',
  read_file: './src/**',
  edit: './src/**',
  write_file: './src/**',
  grep: './src/**',
  glob: './src/**',
  list_directory: './src/**',
  web_fetch: 'domain:example.com',
  agent: 'explore',
};

describe('manifests name their permission subject', () => {
  it.each(Object.entries(SAMPLE_SPECIFIER))(
    '%s: the rule language and the manifest agree',
    (tool, specifier) => {
      const parsed = parseRule(`${tool}(${specifier})`, 'deny');
      if ('error' in parsed) throw new Error(parsed.error);
      const expected = SUBJECT_OF_KIND[parsed.rule.kind ?? 'params'];
      expect(expected, tool).toBeDefined();
      const sample = { command: 'ls', path: 'a.txt', url: 'https://a.example.com/x', agent: 'explore' };
      expect(BUILTIN_SPECS.get(tool)?.permissionSubject?.(sample)?.kind).toBe(expected);
    },
  );

  it('subjects come from raw arguments of any shape, never throwing', () => {
    for (const spec of BUILTIN_SPECS.values()) {
      for (const args of [
        undefined,
        null,
        7,
        'x',
        [],
        { command: 5, path: {}, url: 'not a url', agent: 3 },
      ]) {
        expect(() => spec.permissionSubject?.(args), spec.name).not.toThrow();
      }
    }
    expect(subjectOf('web_fetch', { url: 'https://API.Example.com/a' })).toEqual({
      kind: 'host',
      value: 'api.example.com',
    });
    expect(subjectOf('read_file', {})).toEqual({ kind: 'path', value: '.' });
    expect(subjectOf('agent', {})).toBeUndefined();
  });

  it('judges by the subject, whatever the tool is called', () => {
    const set = compileRuleSet([{ source: 't', deny: ['Bash(rm:*)'], allow: ['Bash(git status)'] }], ROOTS);
    const command = (value: string) => ({ kind: 'command' as const, value });
    expect(evaluateRules(set, 'shell', {}, command('ls && rm -rf x')).effect).toBe('deny');
    expect(evaluateRules(set, 'shell', {}, command('git status')).effect).toBe('allow');
    // the analysis approval modes read comes with every command subject
    expect(evaluateRules(set, 'shell', {}, command('cat README.md')).shell?.readOnly).toBe(true);
  });

  it('fails closed when the manifest names no subject the rules are written for', () => {
    const set = compileRuleSet([{ source: 't', deny: ['Bash(rm:*)'], allow: ['Bash(git status)'] }], ROOTS);
    // a tool called shell whose manifest names nothing: the deny holds for every call
    expect(evaluateRules(set, 'shell', { command: 'git status' }, undefined)).toMatchObject({
      effect: 'deny',
      rule: { text: 'Bash(rm:*)' },
    });
    const allowOnly = compileRuleSet(
      [{ source: 't', allow: ['Bash(git status)'], ask: ['Read(./secret)'] }],
      ROOTS,
    );
    // allow rules never match a subject they were not written for; ask rules always do
    expect(evaluateRules(allowOnly, 'shell', { command: 'git status' }, undefined).effect).toBe('none');
    expect(
      evaluateRules(allowOnly, 'read_file', { path: 'other' }, { kind: 'host', value: 'x' }).effect,
    ).toBe('ask');
    expect(evaluateRules(allowOnly, 'read_file', {}, { kind: 'path', value: 'other' }).effect).toBe('none');
    expect(evaluateRules(allowOnly, 'read_file', {}, { kind: 'path', value: 'secret' }).effect).toBe('ask');
  });

  it('without the subject a rule is written for, key:value rules still match the arguments', () => {
    const set = compileRuleSet(
      [{ source: 't', allow: ['agent(explore)'], ask: ['agent(model:opus)'] }],
      ROOTS,
    );
    // no agent type named: the type rule cannot allow it, the argument rule still asks
    expect(evaluateRules(set, 'agent', { model: 'opus' }, undefined).effect).toBe('ask');
    expect(evaluateRules(set, 'agent', { model: 'haiku' }, undefined).effect).toBe('none');
    expect(evaluateRules(set, 'agent', {}, { kind: 'agentType', value: 'Explore' }).effect).toBe('allow');
  });
});
