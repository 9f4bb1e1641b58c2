import { describe, expect, it } from 'vitest';
import { RoutingLog } from '../../src/platform/routing-log.js';

const entry = (tenant: string, query: string) => ({
  time: '2026-01-01T00:00:00.000Z',
  tenant,
  user: 'u',
  query,
  target: 'quick' as const,
  scores: { deep: 0, quick: 1 },
  rule: null,
});

describe('RoutingLog', () => {
  it('keeps the newest entries per tenant, newest first, within its capacity', () => {
    const log = new RoutingLog(3);
    expect(log.recent('a')).toEqual([]);
    log.add(entry('a', '1'));
    log.add(entry('b', '2'));
    expect(log.recent('a').map((e) => e.query)).toEqual(['1']);
    for (const q of ['3', '4', '5']) log.add(entry('a', q));
    expect(log.recent('a').map((e) => e.query)).toEqual(['5', '4', '3']);
    expect(log.recent('a', 2).map((e) => e.query)).toEqual(['5', '4']);
    expect(log.recent('b')).toEqual([]);
  });
});
