import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/server/auth/index.js';

describe('twinline keys hash', () => {
  it('prints the hash auth.yaml stores, which the server accepts for that key', () => {
    const out = execFileSync(process.execPath, ['bin/twinline.js', 'keys', 'hash', 'tw-acme-alice-demo'], {
      encoding: 'utf8',
    });
    expect(out.trim()).toBe(hashApiKey('tw-acme-alice-demo'));
    expect(out.trim()).toBe('sha256:73827f4a4983302682c30d9fba50b06fd2c43a25575ac2c4ab589197e182a26f');
  });

  it('refuses a short key, naming it', () => {
    const r = spawnSync(process.execPath, ['bin/twinline.js', 'keys', 'hash', 'short'], { encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/<key>.*16 characters/);
  });
});
