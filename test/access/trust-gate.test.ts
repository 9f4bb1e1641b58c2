import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  gateApprovalMode,
  loadFolderTrust,
  mergeAccessSettings,
  resolveStartMode,
  TrustGateError,
  UnknownModeError,
} from '../../src/access/index.js';
import type { ToolInvoker } from '../../src/agent/index.js';
import { AgentSession, createAccessPort, ScriptedProvider } from '../../src/agent/index.js';

const UNTRUSTED = { trusted: false, folder: '/work/proj' };
const TRUSTED = { trusted: true, folder: '/work/proj' };

// requested name, → mode in a trusted folder, refused in an untrusted one?
const MODES: [string, string, boolean][] = [
  ['default', 'default', false],
  ['plan', 'plan', false],
  ['dontAsk', 'default', false],
  ['auto-edit', 'auto-edit', true],
  ['acceptEdits', 'auto-edit', true],
  ['autoEdit', 'auto-edit', true],
  ['auto', 'auto', true],
  ['yolo', 'yolo', true],
  ['bypassPermissions', 'yolo', true],
];

describe('the trust gate: one function for every door', () => {
  it.each(MODES)('%s → %s (refused when untrusted: %s)', (name, mode, privileged) => {
    expect(gateApprovalMode({ name, source: 'test' }, TRUSTED)).toBe(mode);
    if (!privileged) expect(gateApprovalMode({ name, source: 'test' }, UNTRUSTED)).toBe(mode);
    else {
      let err: unknown;
      try {
        gateApprovalMode({ name, source: 'set_permission_mode' }, UNTRUSTED);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(TrustGateError);
      expect((err as TrustGateError).code).toBe('access.trust-gate');
      expect((err as TrustGateError).message).toContain(`"${name}"`);
      expect((err as TrustGateError).message).toContain('/work/proj');
      expect((err as TrustGateError).message).toContain('set_permission_mode');
    }
  });

  it('unknown names and the sub-agent-only bubble are refused with the valid names', () => {
    for (const name of ['root', 'bubble', '', 'YOLO']) {
      expect(() => gateApprovalMode({ name, source: '--permission-mode' }, TRUSTED)).toThrow(
        UnknownModeError,
      );
    }
  });

  it('a settings start mode passes the same gate: refused in an untrusted folder, naming the file', () => {
    const layers = [
      {
        level: 'user' as const,
        path: '/home/u/.twinline/settings.json',
        settings: { permissions: { defaultMode: 'bypassPermissions' } },
      },
    ];
    const untrusted = mergeAccessSettings(layers, false);
    expect(() => resolveStartMode({ settings: untrusted, trust: UNTRUSTED })).toThrow(
      /"yolo" from \/home\/u\/\.twinline\/settings\.json needs a trusted folder/,
    );
    // an explicit, allowed start mode wins over the settings
    expect(
      resolveStartMode({
        requested: { name: 'default', source: 'flag' },
        settings: untrusted,
        trust: UNTRUSTED,
      }),
    ).toBe('default');
    expect(resolveStartMode({ settings: mergeAccessSettings(layers, true), trust: TRUSTED })).toBe('yolo');
  });

  it('AgentSession gates its mode however it is built or switched', () => {
    const gateway: ToolInvoker = {
      invoke: async () => {
        throw new Error('no calls here');
      },
    } as unknown as ToolInvoker;
    const base = {
      identity: { tenant: 't', user: 'u', roles: ['developer'], dataLevel: 'L1' as const, attributes: {} },
      provider: new ScriptedProvider([{ text: 'hi' }]),
      gateway,
      catalog: { list: () => [], get: () => undefined },
      access: createAccessPort(),
      cwd: '/work/proj',
    };
    expect(() => new AgentSession({ ...base, approvalMode: 'bypassPermissions' })).toThrow(TrustGateError);
    expect(() => new AgentSession({ ...base, approvalMode: 'yolo', trustedFolder: false })).toThrow(
      /needs a trusted folder/,
    );
    const s = new AgentSession({ ...base, approvalMode: 'default' });
    expect(() => s.setApprovalMode('acceptEdits')).toThrow(TrustGateError);
    expect(s.approvalMode).toBe('default');
    s.setApprovalMode('plan');
    expect(s.approvalMode).toBe('plan');
    expect(new AgentSession({ ...base, approvalMode: 'yolo', trustedFolder: true }).approvalMode).toBe(
      'yolo',
    );
  });
});

describe('twinline run: the flag and the settings start mode pass the trust gate', () => {
  const BIN = resolve('bin/twinline.js');
  const base = mkdtempSync(join(tmpdir(), 'twinline-run-trust-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const project = join(base, 'proj');
  const home = join(base, 'home');
  mkdirSync(project);
  mkdirSync(join(home, '.twinline'), { recursive: true });
  writeFileSync(join(project, 'script.json'), JSON.stringify([{ text: 'hello' }]));
  const run = (args: string[]) =>
    spawnSync(
      process.execPath,
      [BIN, 'run', 'hello', '--user', 'bob', '--model', 'scripted:script.json', ...args],
      {
        cwd: project,
        encoding: 'utf8',
        env: { ...process.env, HOME: home, TWINLINE_MODEL: '', TWINLINE_DATABASE_URL: '' },
        timeout: 60_000,
      },
    );

  it('refuses a privileged flag in an untrusted folder with the mode and folder, exit 2', () => {
    for (const flag of [
      ['--permission-mode', 'bypassPermissions'],
      ['--approval-mode', 'yolo'],
      ['--permission-mode', 'acceptEdits'],
    ]) {
      const r = run(flag);
      expect(r.status, flag.join(' ')).toBe(2);
      expect(r.stderr).toContain(`"${flag[1]}"`);
      expect(r.stderr).toContain('needs a trusted folder');
      expect(r.stderr).toContain(project);
    }
    expect(run(['--permission-mode', 'root']).stderr).toMatch(/unknown approval mode "root"/);
  });

  it('refuses a privileged settings start mode in an untrusted folder; runs it once the folder is trusted', () => {
    writeFileSync(join(home, '.twinline', 'settings.json'), JSON.stringify({ approvalMode: 'auto-edit' }));
    const refused = run([]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(join(home, '.twinline', 'settings.json'));
    expect(run(['--permission-mode', 'default']).status).toBe(0);
    writeFileSync(
      join(home, '.twinline', 'trustedFolders.json'),
      JSON.stringify({ [project]: 'TRUST_FOLDER' }),
    );
    expect(loadFolderTrust({ cwd: project, homeDir: home }).trusted).toBe(true);
    const ok = run([]);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('mode auto-edit');
    rmSync(join(home, '.twinline', 'settings.json'));
  });
});
