import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxUp } from '../support/sandbox.js';

const doctor = (env: Record<string, string> = {}, ...args: string[]) =>
  spawnSync(process.execPath, ['bin/twinline.js', 'doctor', ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });

describe('twinline doctor', () => {
  it.skipIf(!sandboxUp)('says shell commands run confined, exit 0', () => {
    const r = doctor();
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^sandbox: ok — bubblewrap .* commands run confined/);
  });

  it('says when no sandbox can be created and what follows, exit 1', () => {
    const missing = join(tmpdir(), 'no-such-dir', 'bwrap');
    const r = doctor({ TWINLINE_SANDBOX_BWRAP: missing });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`sandbox: UNAVAILABLE — no sandbox: ${missing} not found`);
    expect(r.stdout).toContain('Every shell command asks before it runs unconfined');
    const json = JSON.parse(doctor({ TWINLINE_SANDBOX_BWRAP: missing }, '--json').stdout) as {
      sandbox: { available: boolean; reason: string };
    };
    expect(json.sandbox).toMatchObject({ available: false, reason: `${missing} not found` });
  });
});
