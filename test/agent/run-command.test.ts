import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripWatermark } from '../../src/gates/index.js';
import { RECENT } from '../support/recent-dates.js';

const BIN = resolve('bin/twinline.js');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'twinline-run-'));
  writeFileSync(
    join(dir, 'script.yaml'),
    [
      'turns:',
      '  - text: "Checking east sales."',
      '    tool_calls:',
      `      - { name: sales_query, arguments: { from: "${RECENT.from}", to: "${RECENT.to}", region: east } }`,
      '      - { name: record_delete, arguments: { table: customers, id: "c1" } }',
      '  - text: "East sales are in; deleting records is not allowed."',
    ].join('\n'),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function twinline(args: string[], env: Record<string, string | undefined> = {}) {
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  for (const k of ['TWINLINE_MODEL', 'OPENAI_BASE_URL', 'OPENAI_API_KEY', 'TWINLINE_DATABASE_URL']) {
    if (!(k in env)) delete childEnv[k];
  }
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: childEnv,
    timeout: 60_000,
  });
  // What `run` prints passes the egress gate, watermarked (test/cli/egress-cli tests the mark).
  return { ...r, stdout: stripWatermark(r.stdout) };
}

describe('twinline run', () => {
  it('runs one request end to end with readable progress', () => {
    const r = twinline(['run', 'How are east sales?', '--user', 'bob', '--model', 'scripted:script.yaml']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('acme/bob');
    expect(r.stdout).toContain('→ sales_query');
    expect(r.stdout).toContain('✓ sales_query executed');
    expect(r.stdout).toMatch(/✗ record_delete denied/);
    expect(r.stdout).toContain('East sales are in; deleting records is not allowed.');
  });

  it('prints JSON lines with --json, one event per line', () => {
    const r = twinline([
      'run',
      'How are east sales?',
      '--user',
      'bob',
      '--model',
      'scripted:script.yaml',
      '--json',
    ]);
    expect(r.status).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; tool?: string; status?: string });
    expect(events[0]!.type).toBe('turn_start');
    expect(events.at(-1)).toMatchObject({ type: 'result', status: 'completed' });
    expect(events.filter((e) => e.type === 'decision').map((e) => [e.tool, e.status])).toEqual([
      ['sales_query', 'executed'],
      ['record_delete', 'denied'],
    ]);
  });

  it('without a model says so, answers read-only and exits non-zero', () => {
    const r = twinline(['run', 'What is the travel policy?', '--user', 'alice']);
    expect(r.status).toBe(3);
    expect(r.stderr).toContain('no model is configured');
    expect(r.stdout).toContain('degraded mode');
  });

  it('names a bad option', () => {
    const r = twinline([
      'run',
      'x',
      '--user',
      'bob',
      '--model',
      'scripted:script.yaml',
      '--approval-mode',
      'reckless',
    ]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('--approval-mode');
    const missing = twinline(['run', 'x', '--user', 'bob', '--model', 'scripted:nope.yaml']);
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toContain('scripted:nope.yaml');
  });
});
