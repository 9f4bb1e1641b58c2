import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuickResultCache, RedisCacheBackend } from '../../src/lines/index.js';

let redis: Redis | undefined;
beforeAll(async () => {
  const client = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    redis = client;
  } catch {
    client.disconnect();
    console.warn('[skip] Redis not reachable on 127.0.0.1:6379 — shared quick-cache test skipped');
  }
});
afterAll(() => redis?.disconnect());

describe('quick-line cache on Redis', () => {
  it('two processes share reads, and a write in one invalidates the other’s', async (ctx) => {
    if (!redis) return ctx.skip();
    const prefix = `twinline-test:${process.pid}:${Date.now()}`;
    const a = new QuickResultCache(new RedisCacheBackend(redis, prefix));
    const b = new QuickResultCache(new RedisCacheBackend(redis, prefix));
    const who = { tenant: 'acme', user: 'alice' };
    const key = await a.key('calendar_list', ['calendar'], { from: '2026-01-01' }, who);
    await a.set(key, { events: [1, 2] }, 60_000);
    expect(await b.get(await b.key('calendar_list', ['calendar'], { from: '2026-01-01' }, who))).toEqual({
      events: [1, 2],
    });
    // Another user never sees it.
    expect(
      await b.get(
        await b.key('calendar_list', ['calendar'], { from: '2026-01-01' }, { ...who, user: 'bob' }),
      ),
    ).toBeUndefined();
    await b.invalidate('acme', ['calendar']);
    expect(
      await a.get(await a.key('calendar_list', ['calendar'], { from: '2026-01-01' }, who)),
    ).toBeUndefined();
    // Another tenant's scope is untouched by acme's write.
    const g = { tenant: 'globex', user: 'gina' };
    const gk = await a.key('calendar_list', ['calendar'], {}, g);
    await a.set(gk, { events: [] }, 60_000);
    await b.invalidate('acme', ['calendar']);
    expect(await a.get(await a.key('calendar_list', ['calendar'], {}, g))).toEqual({ events: [] });
  });

  it('entries expire with their TTL', async (ctx) => {
    if (!redis) return ctx.skip();
    const cache = new QuickResultCache(
      new RedisCacheBackend(redis, `twinline-test:${process.pid}:ttl:${Date.now()}`),
    );
    const key = await cache.key('t', ['s'], {}, { tenant: 'acme', user: 'alice' });
    await cache.set(key, 'v', 30);
    await new Promise((r) => setTimeout(r, 80));
    expect(await cache.get(key)).toBeUndefined();
  });
});
