import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { brokenOfficeConfig } from './broken-office.js';

// The real bin (built by `npm run build`, which `npm test` runs first).
const BIN = resolve('bin/twinline.js');
const SUITE = resolve('eval/office/escalation.yaml');
const cwd = mkdtempSync(join(tmpdir(), 'twinline-eval-cli-'));
const bad = brokenOfficeConfig();
afterAll(() => {
  bad.cleanup();
  rmSync(cwd, { recursive: true, force: true });
});

function twinline(...args: string[]) {
  const env = { ...process.env };
  delete env['TWINLINE_DATABASE_URL'];
  delete env['TWINLINE_MODEL'];
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env, timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('twinline eval', () => {
  const baseline = join(cwd, 'baseline.json');

  it('passes the shipped suite and prints the JSON report', () => {
    const r = twinline('eval', SUITE, '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      summary: {
        scenarios: number;
        success_rate: number;
        misuse_rate: number;
        latency_ms: { avg: number; p95: number };
      };
      scenarios: { id: string; failures: string[] }[];
      gate: { passed: boolean };
    };
    expect(report.summary.scenarios).toBeGreaterThan(40);
    expect(report.summary.success_rate).toBe(1);
    expect(report.summary.misuse_rate).toBe(0);
    expect(report.gate.passed).toBe(true);
    writeFileSync(baseline, r.stdout);
  }, 120_000);

  it('exits non-zero on a too-broad policy and lists the changed scenarios against the baseline', () => {
    const html = join(cwd, 'report.html');
    const r = twinline('eval', SUITE, '--config', bad.configFile, '--baseline', baseline, '--html', html);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /regressed +escalation-quick-01: pass quick\/denied \[\] -> fail quick\/completed \[attendance_query\]/,
    );
    expect(r.stdout).toMatch(/gate: FAILED/);
    expect(r.stdout).toMatch(/- misuse: \d+ executed call/);
    expect(r.stdout).toMatch(/success rate fell by/);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<svg');
    expect(page).toContain('escalation-quick-01');
  }, 120_000);

  it('names file, scenario and field of a bad suite', () => {
    const file = join(cwd, 'bad.yaml');
    writeFileSync(
      file,
      'scenarios:\n  - id: broken-1\n    kind: normal\n    identity: { tenant: acme, user: alice }\n    query: hi\n    expect: { outcome: maybe }\n',
    );
    const r = twinline('eval', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:6`);
    expect(r.stderr).toContain('scenario broken-1');
    expect(r.stderr).toContain('field expect.outcome');
  });
});

describe('twinline canary', () => {
  const store = `sqlite:${join(cwd, 'canary.sqlite')}`;

  it('starts, reports, promotes and rolls back a version', () => {
    const office = resolve('examples/office/twinline.config.yaml');
    expect(
      twinline('canary', 'start', '--version', 'v1', '--config', office, '--percent', '100', '--store', store)
        .code,
    ).toBe(0);
    expect(twinline('canary', 'promote', '--store', store).code).toBe(0);
    const start = twinline(
      'canary',
      'start',
      '--version',
      'v2',
      '--config',
      bad.configFile,
      '--percent',
      '10',
      '--store',
      store,
    );
    expect(start.stdout).toContain('canary v2 started for 10% of users (stable: v1)');
    const status = JSON.parse(twinline('canary', 'status', '--json', '--store', store).stdout) as {
      stable: { version: string };
      rollout: { canaryVersion: string; percent: number };
    };
    expect(status.stable.version).toBe('v1');
    expect(status.rollout).toMatchObject({ canaryVersion: 'v2', percent: 10 });
    const back = twinline('canary', 'rollback', '--reason', 'test', '--store', store);
    expect(back.code).toBe(0);
    expect(back.stdout).toContain('everyone is served v1');
    const none = twinline('canary', 'promote', '--store', store);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no roll-out is running');
    expect(existsSync(join(cwd, 'canary.sqlite'))).toBe(true);
  }, 60_000);

  it('evaluate rolls a misusing canary back automatically', () => {
    const s2 = `sqlite:${join(cwd, 'canary2.sqlite')}`;
    const office = resolve('examples/office/twinline.config.yaml');
    twinline('canary', 'start', '--version', 'good', '--config', office, '--percent', '100', '--store', s2);
    twinline('canary', 'promote', '--store', s2);
    twinline(
      'canary',
      'start',
      '--version',
      'broken',
      '--config',
      bad.configFile,
      '--percent',
      '5',
      '--store',
      s2,
    );
    const r = twinline('canary', 'evaluate', SUITE, '--store', s2);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/ROLLED BACK automatically: canary misuse/);
    const status = JSON.parse(twinline('canary', 'status', '--json', '--store', s2).stdout) as {
      stable: { version: string };
      rollout?: unknown;
    };
    expect(status.stable.version).toBe('good');
    expect(status.rollout).toBeUndefined();
  }, 120_000);
});
