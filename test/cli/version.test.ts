import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

describe('bin/twinline.js', () => {
  it('prints the package version', () => {
    const out = execFileSync(process.execPath, ['bin/twinline.js', '--version'], { encoding: 'utf8' });
    expect(out.trim()).toBe(pkg.version);
  });

  it('fails with a message naming an unknown command', () => {
    try {
      execFileSync(process.execPath, ['bin/twinline.js', 'no-such-command'], {
        encoding: 'utf8',
        stdio: 'pipe',
      });
      expect.unreachable('the command should fail');
    } catch (err) {
      const e = err as { status: number; stderr: string };
      expect(e.status).not.toBe(0);
      expect(e.stderr).toContain('no-such-command');
    }
  });
});
