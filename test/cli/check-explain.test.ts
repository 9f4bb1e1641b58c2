import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = resolve('bin/twinline.js');

function check(...args: string[]) {
  const env = { ...process.env };
  delete env.TWINLINE_USER;
  const r = spawnSync(process.execPath, [BIN, 'check', ...args], { encoding: 'utf8', env, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('twinline check --explain', () => {
  it('names the profile that applies and every slot that is off, with its reason', () => {
    const r = check(
      '--user',
      'alice',
      '--tool',
      'calendar_list',
      '--args',
      '{"from":"2026-12-01","to":"2026-12-02"}',
      '--explain',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^profile: check\(serve\.quick\) \(twinline check for twinline serve/m);
    for (const slot of ['access', 'schema', 'policy', 'parameters', 'intent', 'review']) {
      expect(r.stdout).toMatch(new RegExp(`^  ${slot}\\s+on\\s`, 'm'));
    }
    expect(r.stdout).toMatch(/^ {2}approval\s+off\s+no interactive approver at this door/m);
    expect(r.stdout).toMatch(/^ {2}breaker\s+off\s+dry run: nothing executes/m);
  });

  it('checks as another door: the stream-json host session acts for the local operator', () => {
    const r = check(
      '--profile',
      'host-session',
      '--tool',
      'salary_analysis',
      '--args',
      '{"departments":["rd"]}',
      '--json',
      '--explain',
    );
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      tenant: string;
      profile: string;
      decision: { ruleId: string };
      slots: { slot: string; on: boolean }[];
    };
    expect(out.profile).toBe('check(host-session)');
    expect(out.tenant).toBe('local');
    expect(out.decision.ruleId).toBe('manifest.allowed-roles');
    expect(out.slots.filter((s) => !s.on).map((s) => s.slot)).toEqual([
      // a dry run has no host attached to answer its hooks
      'hooks',
      'rate-limit',
      'breaker',
      'quote',
      'redact',
      'fact',
    ]);
  });

  it('an unknown profile is an error naming the known ones', () => {
    const r = check('--user', 'alice', '--tool', 'calendar_list', '--profile', 'backdoor');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/unknown profile "backdoor"; known: serve\.deep, serve\.quick/);
  });
});
