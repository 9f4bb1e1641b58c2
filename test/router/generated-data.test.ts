import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

describe('the router training data (data/router/requests.generated.jsonl)', () => {
  it('is what scripts/generate-router-data.ts makes, byte for byte', () => {
    const committed = readFileSync(resolve(ROOT, 'data/router/requests.generated.jsonl'));
    expect(committed.toString('utf8', 0, 200)).toMatch(
      /^\{"_generated":"by scripts\/generate-router-data\.ts/,
    );
    const tmp = mkdtempSync(join(tmpdir(), 'twinline-regen-'));
    try {
      const out = join(tmp, 'requests.jsonl');
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/generate-router-data.ts', '--out', out], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      expect(readFileSync(out).equals(committed)).toBe(true);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 60_000);
});
