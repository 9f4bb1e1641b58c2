import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// Runs the real bin (needs `npm run build`, which `npm test` does first).
const run = (args: string[], input?: string) =>
  execFileSync(process.execPath, ['bin/twinline.js', 'route', ...args], {
    encoding: 'utf8',
    input,
    stdio: 'pipe',
  });

describe('twinline route', () => {
  it('prints one decision as JSON', () => {
    const d = JSON.parse(run(['帮我把下午的会议推迟到四点', '--json'])) as Record<string, unknown>;
    expect(d.target).toBe('quick');
    expect(d.rule).toBe('quick.zh.reschedule');
    expect(Object.keys(d.scores as object).sort()).toEqual(['deep', 'quick']);
  });

  it('prints a human line by default', () => {
    expect(run(['你好'])).toMatch(/^readonly_fallback\s+deep=0\.000 quick=0\.000\s+rule=readonly\.greeting/);
  });

  it('streams --jsonl, reporting a malformed line by number and carrying on', () => {
    const input = [
      JSON.stringify({ id: 'a', query: '分析本季度三个项目的资源冲突并生成调整建议' }),
      '{not json',
      JSON.stringify({ id: 'c' }),
      '',
      JSON.stringify({ id: 4, query: 'hello' }),
    ].join('\n');
    const lines = run(['--jsonl'], input)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatchObject({ id: 'a', target: 'deep' });
    expect(Object.keys(lines[0]!)).toEqual(['id', 'target', 'scores', 'rule']);
    expect(lines[1]).toMatchObject({ line: 2, error: 'invalid_json' });
    expect(lines[2]).toMatchObject({ line: 3, id: 'c', error: 'invalid_record' });
    expect(lines[3]).toMatchObject({ id: 4, target: 'readonly_fallback' });
  });

  it('rejects a threshold outside (0, 1] naming the flag', () => {
    try {
      run(['x', '--threshold', '7']);
      expect.unreachable('should fail');
    } catch (err) {
      const e = err as { status: number; stderr: string };
      expect(e.status).toBe(2);
      expect(e.stderr).toContain('--threshold');
    }
  });
});
