import { describe, expect, it } from 'vitest';
import { listLimit } from '../../src/cli/commands/list-limit.js';

describe('--limit of the list commands', () => {
  it.each([
    ['1', 1],
    ['50', 50],
    ['10000', 10_000],
  ])('%s → %d', (raw, limit) => {
    expect(listLimit(raw)).toBe(limit);
  });

  it.each(['0', '-1', '10001', '2.5', 'ten', ''])('%j is a usage error naming --limit', (raw) => {
    expect(() => listLimit(raw)).toThrow(
      expect.objectContaining({ code: 'cli.bad-limit', where: '--limit' }),
    );
  });
});
