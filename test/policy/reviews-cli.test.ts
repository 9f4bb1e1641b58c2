import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { who } from './office.js';

const BIN = resolve('bin/twinline.js');
const cwd = mkdtempSync(join(tmpdir(), 'twinline-reviews-cli-'));
const CONFIG = join(cwd, 'twinline.config.yaml');
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function twinline(...args: string[]) {
  const env = { ...process.env };
  delete env['TWINLINE_DATABASE_URL'];
  const r = spawnSync(process.execPath, [BIN, ...args, '--config', CONFIG], {
    cwd,
    encoding: 'utf8',
    env,
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const ids: Record<string, string> = {};

beforeAll(async () => {
  // the office config, with absolute paths and the policy layer switched on
  const office = resolve('examples/office');
  const text = readFileSync(join(office, 'twinline.config.yaml'), 'utf8')
    .replace('module: ./tools/index.ts', `module: ${join(office, 'tools/index.ts')}`)
    .replace(/weights: .*/, `weights: ${join(office, '../../src/router/model/router-weights.json')}`)
    .replace('users: ./users.yaml', `users: ${join(office, 'users.yaml')}`)
    .replace('roles: ./roles.yaml', `roles: ${join(office, 'roles.yaml')}`)
    .replace(/^policies:.*$/m, `policies: [${join(office, 'policies.yaml')}]`)
    .concat(`\ndataDir: ${cwd}\nstore: { sqlite: ${join(cwd, 'store.sqlite')} }\n`);
  writeFileSync(CONFIG, text);
  const store = await openStore({ sqliteFile: join(cwd, 'store.sqlite') });
  const enqueue = async (user: string, tool: string, args: unknown) =>
    (
      await store.reviews.enqueue({
        tenant: 'acme',
        user,
        sessionId: 'cli-test',
        agent: 'main',
        domain: 'deep',
        tool,
        args,
        identity: who(user, 'acme'),
        reason: 'requires review',
        decisionPath: [],
        expiresAt: new Date(Date.now() + 3600_000).toISOString(),
      })
    ).id;
  ids.billing = await enqueue('carol', 'billing_report_query', { period: '2026-10', project: 'atlas' });
  ids.config = await enqueue('dave', 'project_config_update', {
    project: 'phoenix',
    key: 'deploy.region',
    value: 'eu',
  });
  await store.close();
});

describe('twinline reviews', () => {
  it('lists pending reviews', () => {
    const r = twinline('reviews', 'list', '--status', 'pending', '--json');
    expect(r.code, r.stderr).toBe(0);
    const items = JSON.parse(r.stdout) as { id: string; tool: string }[];
    expect(items.map((i) => i.id).sort()).toEqual([ids.billing, ids.config].sort());
    expect(twinline('reviews', 'list').stdout).toContain('billing_report_query');
  });

  it('approve runs the call once; a second approve changes nothing', () => {
    const first = twinline(
      'reviews',
      'approve',
      ids.billing as string,
      '--by',
      'lead',
      '--note',
      'fine',
      '--json',
    );
    expect(first.code, first.stderr).toBe(0);
    const out = JSON.parse(first.stdout) as {
      decided: boolean;
      status: string;
      execution: { status: string };
    };
    expect(out).toMatchObject({ decided: true, status: 'executed', execution: { status: 'executed' } });
    const again = twinline('reviews', 'approve', ids.billing as string, '--by', 'other');
    expect(again.code).toBe(1);
    expect(again.stdout).toContain('not changed: it is executed');
  });

  it('deny records the decision and runs nothing', () => {
    const r = twinline('reviews', 'deny', ids.config as string, '--by', 'lead', '--note', 'freeze');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('denied by lead');
    const list = JSON.parse(twinline('reviews', 'list', '--status', 'denied', '--json').stdout) as {
      id: string;
      decisionNote: string;
    }[];
    expect(list).toEqual([expect.objectContaining({ id: ids.config, decisionNote: 'freeze' })]);
  });

  it('an unknown id is a clear error', () => {
    const r = twinline('reviews', 'approve', 'no-such-review');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no review no-such-review');
  });
});
