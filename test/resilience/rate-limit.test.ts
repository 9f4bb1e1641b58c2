import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRateLimiter } from '../../src/resilience/index.js';

describe('UserRateLimiter (in process)', () => {
  it('allows the budget then refuses with a retry delay', async () => {
    const limiter = new UserRateLimiter({ points: 3, durationSeconds: 1, keyPrefix: `t${Date.now()}` });
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push(await limiter.consume('acme:alice'));
    expect(outcomes.map((o) => o.allowed)).toEqual([true, true, true, false, false]);
    expect(outcomes[3]!.retryAfterMs).toBeGreaterThan(0);
    expect(outcomes[3]!.retryAfterMs).toBeLessThanOrEqual(1000);
  });

  it('keeps users apart', async () => {
    const limiter = new UserRateLimiter({ points: 1, keyPrefix: `u${Date.now()}` });
    expect((await limiter.consume('acme:alice')).allowed).toBe(true);
    expect((await limiter.consume('acme:bob')).allowed).toBe(true);
    expect((await limiter.consume('acme:alice')).allowed).toBe(false);
  });

  it('refuses a nonsensical budget', () => {
    expect(() => new UserRateLimiter({ points: 0 })).toThrow(/positive/);
  });
});

let redis: Redis | undefined;
beforeAll(async () => {
  const client = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    await client.ping();
    redis = client;
  } catch {
    client.disconnect();
    console.warn('[skip] Redis not reachable on 127.0.0.1:6379 — shared rate-limit tests skipped');
  }
});
afterAll(() => redis?.disconnect());

describe('UserRateLimiter on Redis', () => {
  it('two limiters on one Redis share one budget (two processes behave as one)', async (ctx) => {
    if (!redis) return ctx.skip();
    const prefix = `twinline-test:${process.pid}:${Date.now()}`;
    const a = new UserRateLimiter({ points: 4, redis, keyPrefix: prefix });
    const b = new UserRateLimiter({ points: 4, redis, keyPrefix: prefix });
    const results = await Promise.all([
      a.consume('acme:bob'),
      b.consume('acme:bob'),
      a.consume('acme:bob'),
      b.consume('acme:bob'),
      a.consume('acme:bob'),
      b.consume('acme:bob'),
    ]);
    expect(results.filter((r) => r.allowed)).toHaveLength(4);
  });
});
