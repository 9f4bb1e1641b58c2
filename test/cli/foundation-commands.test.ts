import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = resolve('bin/twinline.js');
// Each test file works in its own folder, so `.twinline/` state never mixes with other tests.
const cwd = mkdtempSync(join(tmpdir(), 'twinline-cli-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function twinline(...args: string[]) {
  const env = { ...process.env };
  delete env['TWINLINE_DATABASE_URL'];
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('twinline tools', () => {
  it('lists every office tool, and --json gives manifests with JSON Schema', () => {
    const table = twinline('tools');
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('calendar_list');
    expect(table.stdout).toContain('record_delete');
    const json = twinline('tools', '--json');
    expect(json.code).toBe(0);
    const manifest = JSON.parse(json.stdout) as { name: string; inputSchema: { type: string } }[];
    expect(manifest).toHaveLength(14);
    expect(manifest.every((t) => t.inputSchema.type === 'object')).toBe(true);
  });
});

describe('twinline check', () => {
  it('prints the decision, the deciding rule and every stage verdict', () => {
    const r = twinline(
      'check',
      '--user',
      'alice',
      '--tool',
      'sales_query',
      '--args',
      '{"from":"2026-07-01","to":"2026-12-31"}',
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('DENY');
    // The same deciding stages as the line's gateway in `serve`: the policy engine decides here.
    expect(r.stdout).toContain('policy (manifest.data-level)');
    expect(r.stdout).toMatch(/access\s+allow/);
    expect(r.stdout).toMatch(/schema\s+allow/);
    expect(r.stdout).toMatch(/policy\s+deny/);
  });

  it('--json: review for carol’s billing report, nothing queued', () => {
    const r = twinline(
      'check',
      '--user',
      'carol',
      '--tenant',
      'acme',
      '--tool',
      'billing_report_query',
      '--args',
      '{"period":"2026-11"}',
      '--declare',
      'billing_report_query',
      '--json',
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      verdict: 'review',
      decision: { stage: 'review', ruleId: 'review.required' },
    });
    expect(out.path.map((d: { stage: string }) => d.stage)).toEqual([
      'access',
      'schema',
      'policy',
      'parameters',
      'intent',
      'review',
    ]);
  });

  it('a high-risk call the task never declared is stopped by the intent stage', () => {
    const r = twinline(
      'check',
      '--user',
      'carol',
      '--tool',
      'billing_report_query',
      '--args',
      '{"period":"2026-11"}',
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('DENY');
    expect(r.stdout).toMatch(/intent \(intent\.no-declaration\)/);
  });

  it.each([
    ['bad JSON in --args', ['--user', 'alice', '--tool', 'calendar_list', '--args', '{from:'], '--args'],
    ['unknown user', ['--user', 'zed', '--tool', 'calendar_list'], 'zed'],
    ['unknown user in tenant', ['--user', 'alice', '--tenant', 'globex', '--tool', 'calendar_list'], 'alice'],
    ['unknown tool', ['--user', 'alice', '--tool', 'teleport'], 'teleport'],
    ['missing config', ['--user', 'alice', '--tool', 'calendar_list', '--config', 'nope.yaml'], 'nope.yaml'],
  ])('%s: exits non-zero naming the bad input', (_label, args, named) => {
    const r = twinline('check', ...args);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(named);
    expect(r.stdout).toBe('');
  });
});

describe('twinline demo and audit', () => {
  it('demo runs allowed, denied and review calls; audit reads them back from the store', () => {
    const demo = twinline('demo');
    expect(demo.code).toBe(0);
    expect(demo.stdout).toMatch(/ALLOW\s+acme\/alice\s+calendar_list/);
    expect(demo.stdout).toMatch(/DENY\s+acme\/mallory\s+salary_analysis/);
    expect(demo.stdout).toMatch(/REVIEW\s+acme\/carol\s+billing_report_query/);
    expect(demo.stdout).toContain('tool.unavailable');

    const all = twinline('audit', '--json', '--limit', '1000');
    expect(all.code).toBe(0);
    const records = JSON.parse(all.stdout) as { user: string; tool: string; status: string }[];
    expect(records.length).toBeGreaterThanOrEqual(11);

    const mallory = JSON.parse(
      twinline('audit', '--json', '--tenant', 'acme', '--user', 'mallory').stdout,
    ) as typeof records;
    expect(mallory.length).toBeGreaterThan(0);
    expect(mallory.every((r) => r.user === 'mallory')).toBe(true);
    expect(mallory.some((r) => r.tool === 'salary_analysis' && r.status === 'denied')).toBe(true);

    const billing = JSON.parse(
      twinline('audit', '--json', '--tool', 'billing_report_query', '--since', '2020-01-01').stdout,
    ) as typeof records;
    expect(billing.map((r) => r.status).sort()).toEqual(['executed', 'executed', 'review', 'review']);

    const text = twinline('audit', '--limit', '3');
    expect(text.code).toBe(0);
    expect(text.stdout.trim().split('\n')).toHaveLength(3);
  });

  it('audit rejects a bad --since or --limit by name', () => {
    const since = twinline('audit', '--since', 'yesterday');
    expect(since.code).not.toBe(0);
    expect(since.stderr).toContain('--since');
    const limit = twinline('audit', '--limit', 'lots');
    expect(limit.code).not.toBe(0);
    expect(limit.stderr).toContain('--limit');
  });
});
