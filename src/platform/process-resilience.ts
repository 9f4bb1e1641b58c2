import { MemoryCacheBackend, QuickResultCache, RedisCacheBackend } from '../lines/index.js';
import { SharedBreakerState, ToolBreakers, UserRateLimiter } from '../resilience/index.js';
import type { PlatformOptions } from './platform-types.js';

/**
 * This process's breakers, quick-line read cache and per-user rate limit: on Redis shared with
 * every process of the deployment (an open breaker refuses the tool in all of them, a write
 * invalidates every cache), else in process. The cache runs on the platform's clock.
 */
export function processResilience(options: PlatformOptions, now: () => Date) {
  const prefix = options.redisPrefix ?? 'twinline';
  const breakers = new ToolBreakers({
    ...options.breakers,
    ...(options.redis ? { shared: new SharedBreakerState(options.redis, `${prefix}:breaker`) } : {}),
  });
  const cache = new QuickResultCache(
    options.redis
      ? new RedisCacheBackend(options.redis, `${prefix}:cache`)
      : new MemoryCacheBackend(10_000, () => now().getTime()),
  );
  const limiter = new UserRateLimiter({
    points: options.quickQps ?? 10,
    durationSeconds: options.quickWindowSeconds ?? 1,
    ...(options.redis ? { redis: options.redis } : {}),
    keyPrefix: `${prefix}:quick`,
  });
  return { breakers, cache, limiter };
}
