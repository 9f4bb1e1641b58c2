import type { Redis } from 'ioredis';
import type { CacheBackend } from './result-cache.js';

/**
 * The quick-line read cache on Redis, so every `twinline serve` process shares cached reads and,
 * more importantly, sees a write's invalidation at once (versions are Redis counters).
 */
export class RedisCacheBackend implements CacheBackend {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'twinline:cache',
  ) {}

  async get(key: string): Promise<string | undefined> {
    return (await this.redis.get(`${this.prefix}:${key}`)) ?? undefined;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.redis.set(`${this.prefix}:${key}`, value, 'PX', Math.max(1, Math.round(ttlMs)));
  }

  async counters(keys: readonly string[]): Promise<number[]> {
    if (keys.length === 0) return [];
    const values = await this.redis.mget(...keys.map((k) => `${this.prefix}:${k}`));
    return values.map((v) => (v === null ? 0 : Number(v)));
  }

  async increment(key: string): Promise<number> {
    return this.redis.incr(`${this.prefix}:${key}`);
  }
}
