import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { importExternal } from '../core/index.js';

type RateLimiterPackage = typeof import('rate-limiter-flexible');

/** The outcome of one attempt to spend a rate-limit point. */
export interface RateLimitOutcome {
  readonly allowed: boolean;
  /** When not allowed: how long until a point is available again. */
  readonly retryAfterMs: number;
  readonly remaining: number;
}

export interface UserRateLimiterOptions {
  /** Calls allowed per window per key (e.g. per tenant+user). */
  readonly points: number;
  /** Window length in seconds (1 → a QPS limit). */
  readonly durationSeconds?: number;
  /** Shared Redis: the limit then holds across every process that uses the same prefix. */
  readonly redis?: Redis;
  readonly keyPrefix?: string;
}

/**
 * A per-key limiter (the quick line keys it by tenant and user) on `rate-limiter-flexible`:
 * in-process by default, on Redis when given a client so several `twinline serve` processes share
 * one budget. If Redis fails, an in-memory insurance limiter keeps limiting per process rather
 * than letting every call through.
 */
export class UserRateLimiter {
  readonly #options: UserRateLimiterOptions;
  // Loaded with the first call: a door that builds the pipeline but never limits (`twinline
  // check`, the stream-json engine) does not load the package at start-up.
  #limiter: Promise<{ limiter: RateLimiterAbstract; pkg: RateLimiterPackage }> | undefined;

  constructor(options: UserRateLimiterOptions) {
    if (!Number.isFinite(options.points) || options.points <= 0) {
      throw new RangeError(`rate limit points must be a positive number, got ${options.points}`);
    }
    this.#options = options;
  }

  #ready(): Promise<{ limiter: RateLimiterAbstract; pkg: RateLimiterPackage }> {
    this.#limiter ??= importExternal<RateLimiterPackage>('rate-limiter-flexible').then((pkg) => {
      const options = this.#options;
      const duration = options.durationSeconds ?? 1;
      const keyPrefix = options.keyPrefix ?? 'twinline:rl';
      const memory = new pkg.RateLimiterMemory({ points: options.points, duration, keyPrefix });
      const limiter = options.redis
        ? new pkg.RateLimiterRedis({
            storeClient: options.redis,
            points: options.points,
            duration,
            keyPrefix,
            insuranceLimiter: memory,
          })
        : memory;
      return { limiter, pkg };
    });
    return this.#limiter;
  }

  /** Spends one point for `key`. Never throws for an exhausted budget. */
  async consume(key: string): Promise<RateLimitOutcome> {
    const { limiter, pkg } = await this.#ready();
    try {
      const res = await limiter.consume(key, 1);
      return { allowed: true, retryAfterMs: 0, remaining: res.remainingPoints };
    } catch (err) {
      if (err instanceof pkg.RateLimiterRes) {
        return { allowed: false, retryAfterMs: Math.max(1, err.msBeforeNext), remaining: 0 };
      }
      throw err;
    }
  }
}
