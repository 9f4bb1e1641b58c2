import { describe, expect, it } from 'vitest';
import { isSharedFrozen } from '../../src/gateway/index.js';
import { MemoryCacheBackend, QuickResultCache } from '../../src/lines/index.js';

describe('quick-line read cache hits', () => {
  it('hand every hit one value, frozen at every depth, until the entry changes', async () => {
    const cache = new QuickResultCache(new MemoryCacheBackend());
    const who = { tenant: 'acme', user: 'alice' };
    const key = await cache.key('calendar_list', ['calendar'], { from: '2026-01-01' }, who);
    const stored = { events: [{ id: 'evt-0001', attendees: ['alice'] }] };
    await cache.set(key, stored, 60_000);
    const first = (await cache.get(key)) as typeof stored;
    const second = await cache.get(key);
    expect(second).toBe(first);
    expect(first).toEqual(stored);
    expect(isSharedFrozen(first)).toBe(true);
    expect(() => first.events[0]!.attendees.push('mallory')).toThrow(TypeError);
    expect(() => {
      (first.events[0] as { id: string }).id = 'evt-9999';
    }).toThrow(TypeError);
    // The caller's own object stays its own.
    stored.events.push({ id: 'evt-0002', attendees: [] });
    expect(((await cache.get(key)) as typeof stored).events).toHaveLength(1);
    // A rewritten entry is decoded afresh.
    await cache.set(key, { events: [] }, 60_000);
    expect(await cache.get(key)).toEqual({ events: [] });
    expect(cache.hits).toBe(4);
  });

  it('keeps users apart', async () => {
    const cache = new QuickResultCache(new MemoryCacheBackend());
    const a = await cache.key('t', ['s'], {}, { tenant: 'acme', user: 'alice' });
    const b = await cache.key('t', ['s'], {}, { tenant: 'acme', user: 'bob' });
    await cache.set(a, { v: 1 }, 60_000);
    expect(await cache.get(b)).toBeUndefined();
  });
});
