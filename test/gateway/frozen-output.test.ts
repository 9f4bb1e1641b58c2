import { describe, expect, it } from 'vitest';
import { freezeShared, isSharedFrozen, outputJson, summariseOutput } from '../../src/gateway/index.js';

describe('shared frozen outputs', () => {
  it('are frozen at every depth and recognised as shared', () => {
    const v = freezeShared({ events: [{ id: 1, tags: ['a'] }] });
    expect(isSharedFrozen(v)).toBe(true);
    expect(Object.isFrozen(v.events[0]!.tags)).toBe(true);
    // Frozen by someone else is not shared: its children may still change.
    expect(isSharedFrozen(Object.freeze({ a: [] }))).toBe(false);
  });

  it('serialise and summarise exactly like fresh ones', () => {
    const make = () => ({ events: [{ id: 'evt-0001', title: '周会 "A"' }], total: 1 });
    const shared = freezeShared(make());
    expect(outputJson(shared)).toBe(JSON.stringify(make()));
    expect(outputJson(shared)).toBe(outputJson(shared));
    expect(summariseOutput(shared)).toBe(summariseOutput(make()));
    expect(outputJson(null)).toBe('null');
  });
});
