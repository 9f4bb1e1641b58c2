import { describe, expect, it } from 'vitest';
import { RoutingLog } from '../../src/platform/routing-log.js';

const entry = (tenant: string, query: string, user = 'u') => ({
  time: '2026-01-01T00:00:00.000Z',
  tenant,
  user,
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
    expect(log.recent('b').map((e) => e.query)).toEqual(['2']);
  });

  it('one ring per tenant: a flood from one tenant evicts none of another’s history', () => {
    const log = new RoutingLog(500);
    for (let i = 0; i < 20; i++) log.add(entry('globex', `g${i}`));
    for (let i = 0; i < 5_000; i++) log.add(entry('acme', `a${i}`));
    expect(log.recent('globex', 100)).toHaveLength(20);
    expect(log.recent('acme', 1_000)).toHaveLength(500);
  });

  it('filters by user', () => {
    const log = new RoutingLog(10);
    log.add(entry('acme', 'mine', 'alice'));
    log.add(entry('acme', 'salary of wang wei', 'erin'));
    expect(log.recent('acme', 50, 'alice').map((e) => e.query)).toEqual(['mine']);
    expect(log.recent('acme', 50).map((e) => e.user)).toEqual(['erin', 'alice']);
  });

  it('keeps at most maxTenants rings, dropping the one written to least recently', () => {
    const log = new RoutingLog(5, 2);
    log.add(entry('a', '1'));
    log.add(entry('b', '2'));
    log.add(entry('a', '3'));
    log.add(entry('c', '4'));
    expect(log.recent('b')).toEqual([]);
    expect(log.recent('a').map((e) => e.query)).toEqual(['3', '1']);
    expect(log.recent('c')).toHaveLength(1);
  });
});
