import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { hashApiKey } from '../../src/server/auth/index.js';

describe('twinline keys hash', () => {
  it('prints the auth.yaml line holding the hash the server accepts for that key', () => {
    const out = execFileSync(
      process.execPath,
      ['bin/twinline.js', 'keys', 'hash', 'tw-acme-alice-demo', '--tenant', 'acme', '--user', 'alice'],
      { encoding: 'utf8' },
    );
    const hash = 'sha256:73827f4a4983302682c30d9fba50b06fd2c43a25575ac2c4ab589197e182a26f';
    expect(hashApiKey('tw-acme-alice-demo')).toBe(hash);
    expect(out).toBe(`  - { tenant: acme, user: alice, hash: "${hash}" }\n`);
    // the line is what auth.yaml holds for alice, byte for byte apart from the layout
    const entry = (parse(`apiKeys:\n${out}`) as { apiKeys: unknown[] }).apiKeys[0];
    const office = parse(readFileSync('examples/office/auth.yaml', 'utf8')) as { apiKeys: unknown[] };
    expect(office.apiKeys).toContainEqual(entry);
  });

  it('reads the key from stdin with -, and prints only the hash with --hash-only', () => {
    const r = spawnSync(process.execPath, ['bin/twinline.js', 'keys', 'hash', '-', '--hash-only'], {
      encoding: 'utf8',
      input: 'tw-acme-alice-demo\n',
    });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(hashApiKey('tw-acme-alice-demo'));
  });

  it('without --tenant and --user prints placeholders and says so', () => {
    const r = spawnSync(process.execPath, ['bin/twinline.js', 'keys', 'hash', 'tw-acme-alice-demo'], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^ {2}- \{ tenant: TENANT, user: USER, hash: "sha256:[0-9a-f]{64}" \}\n$/);
    expect(r.stderr).toMatch(/replace TENANT and USER/);
  });

  it('refuses a short key, naming it', () => {
    const r = spawnSync(process.execPath, ['bin/twinline.js', 'keys', 'hash', 'short'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/<key>.*16 characters/);
  });
});
