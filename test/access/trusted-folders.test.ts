import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  loadAccessEnvironment,
  loadTrustedFolders,
  mergeAccessSettings,
  resolveFolderTrust,
  type TrustValue,
} from '../../src/access/index.js';
import { ConfigError } from '../../src/core/index.js';

describe('trusted folders', () => {
  const cases: [string, Record<string, TrustValue>, string, 'trusted' | 'untrusted' | 'unknown'][] = [
    ['no rules', {}, '/w/p', 'unknown'],
    ['exact trust', { '/w/p': 'TRUST_FOLDER' }, '/w/p', 'trusted'],
    ['ancestor trust', { '/w': 'TRUST_FOLDER' }, '/w/p/q', 'trusted'],
    ['sibling prefix is not an ancestor', { '/w/p': 'TRUST_FOLDER' }, '/w/pp', 'unknown'],
    ['deeper distrust wins', { '/w': 'TRUST_FOLDER', '/w/p': 'DO_NOT_TRUST' }, '/w/p/q', 'untrusted'],
    ['deeper trust wins', { '/w': 'DO_NOT_TRUST', '/w/p': 'TRUST_FOLDER' }, '/w/p', 'trusted'],
    ['TRUST_PARENT trusts the parent', { '/w/p/marker': 'TRUST_PARENT' }, '/w/p/q', 'trusted'],
    [
      'agreeing rules at the same depth',
      { '/w/p': 'TRUST_FOLDER', '/w/p/x': 'TRUST_PARENT', '/w/p/y': 'TRUST_PARENT' },
      '/w/p',
      'trusted',
    ],
    [
      'tie with distrust goes untrusted',
      { '/w/p': 'DO_NOT_TRUST', '/w/p/x': 'TRUST_PARENT' },
      '/w/p',
      'untrusted',
    ],
    ['root rule', { '/': 'TRUST_FOLDER' }, '/any/where', 'trusted'],
    ['trailing slash and dots', { '/w/p/': 'TRUST_FOLDER' }, '/w/p/./q/..', 'trusted'],
  ];
  it.each(cases)('%s', (_t, rules, folder, expected) => {
    expect(resolveFolderTrust(folder, rules).trust).toBe(expected);
  });

  it('the loader: missing file = no rules; malformed = ConfigError', () => {
    const dir = mkdtempSync(join(tmpdir(), 'twl-trust-'));
    expect(loadTrustedFolders(join(dir, 'none.json'))).toEqual({});
    writeFileSync(join(dir, 'bad.json'), '{"/x": "MAYBE"}');
    expect(() => loadTrustedFolders(join(dir, 'bad.json'))).toThrow(ConfigError);
    writeFileSync(join(dir, 'rel.json'), '{"x": "TRUST_FOLDER"}');
    expect(() => loadTrustedFolders(join(dir, 'rel.json'))).toThrow(/absolute/);
    writeFileSync(join(dir, 'json.json'), '{');
    expect(() => loadTrustedFolders(join(dir, 'json.json'))).toThrow(/JSON/);
  });

  it('an untrusted folder ignores project settings and refuses privileged modes', () => {
    const layers = [
      { level: 'user' as const, path: 'u', settings: { permissions: { deny: ['WebSearch'] } } },
      {
        level: 'project' as const,
        path: 'p',
        settings: { approvalMode: 'yolo', permissions: { allow: ['Bash'] } },
      },
      { level: 'local' as const, path: 'l', settings: { permissions: { allow: ['Edit'] } } },
    ];
    const untrusted = mergeAccessSettings(layers, false);
    expect(untrusted.ruleSources.map((s) => s.source)).toEqual(['u']);
    expect(untrusted.approvalMode).toBe('default');
    const trusted = mergeAccessSettings(layers, true);
    expect(trusted.ruleSources.map((s) => s.source)).toEqual(['u', 'p', 'l']);
    expect(trusted.approvalMode).toBe('yolo');
  });

  it('managed settings override scalars and can restrict rules to managed ones', () => {
    const layers = [
      {
        level: 'managed' as const,
        path: 'm',
        settings: {
          approvalMode: 'plan',
          allowManagedPermissionRulesOnly: true,
          permissions: { deny: ['Bash'] },
        },
      },
      {
        level: 'user' as const,
        path: 'u',
        settings: { approvalMode: 'auto-edit', permissions: { allow: ['Bash'] } },
      },
    ];
    const s = mergeAccessSettings(layers, true);
    expect(s.approvalMode).toBe('plan');
    expect(s.ruleSources.map((r) => r.source)).toEqual(['m']);
  });

  it('end to end from files: trust decides whether project rules apply', () => {
    const root = mkdtempSync(join(tmpdir(), 'twl-env-'));
    const proj = join(root, 'proj');
    const home = join(root, 'home');
    mkdirSync(join(proj, '.twinline'), { recursive: true });
    mkdirSync(join(home, '.twinline'), { recursive: true });
    writeFileSync(
      join(proj, '.twinline/settings.json'),
      JSON.stringify({ permissions: { deny: ['Bash(curl *)'] }, approvalMode: 'auto-edit' }),
    );
    const before = loadAccessEnvironment({ cwd: proj, homeDir: home });
    expect(before.trusted).toBe(false);
    expect(before.rules.rules).toHaveLength(0);
    expect(before.settings.approvalMode).toBe('default');
    writeFileSync(join(home, '.twinline/trustedFolders.json'), JSON.stringify({ [proj]: 'TRUST_FOLDER' }));
    const after = loadAccessEnvironment({ cwd: proj, homeDir: home });
    expect(after.trusted).toBe(true);
    expect(after.rules.rules.map((r) => r.text)).toEqual(['Bash(curl *)']);
    expect(after.settings.approvalMode).toBe('auto-edit');
    // managed settings path is injectable and wins
    writeFileSync(join(root, 'managed.json'), JSON.stringify({ approvalMode: 'plan' }));
    expect(
      loadAccessEnvironment({ cwd: proj, homeDir: home, managedSettingsPath: join(root, 'managed.json') })
        .settings.approvalMode,
    ).toBe('plan');
  });
});
