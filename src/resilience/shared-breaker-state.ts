import type { Redis } from 'ioredis';

/** Which breaker a shared key stands for: one tenant's breaker of a tool, or the tool-wide one. */
export type BreakerScope = { readonly tenant: string; readonly tool: string } | { readonly tool: string };

/**
 * Breaker state shared across processes on Redis, under the same keys as in each process: a
 * process whose breaker opens writes `<prefix>:tenant:<tenant>:<tool>` (that tenant's breaker) or
 * `<prefix>:tool:<tool>` (the tool-wide one) with the reset timeout as its lifetime, and every
 * process treats that breaker as open while the key lives. Reads are cached briefly so the
 * decision path rarely waits on Redis; the two keys a call needs are read in one round trip.
 */
export class SharedBreakerState {
  readonly #seen = new Map<string, { openUntil: number; checkedAt: number }>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'twinline:breaker',
    private readonly refreshMs = 250,
  ) {}

  /** The Redis key of a breaker (names are URI-encoded, so no name can reach into another's key). */
  key(scope: BreakerScope): string {
    return 'tenant' in scope
      ? `${this.prefix}:tenant:${encodeURIComponent(scope.tenant)}:${encodeURIComponent(scope.tool)}`
      : `${this.prefix}:tool:${encodeURIComponent(scope.tool)}`;
  }

  /** Records that this breaker opened here, for `ms`. */
  async markOpen(scope: BreakerScope, ms: number): Promise<void> {
    const key = this.key(scope);
    this.#seen.set(key, { openUntil: Date.now() + ms, checkedAt: Date.now() });
    await this.redis.set(key, String(process.pid), 'PX', Math.max(1, ms));
  }

  /** Records that this breaker recovered here (a half-open trial succeeded). */
  async markClosed(scope: BreakerScope): Promise<void> {
    const key = this.key(scope);
    this.#seen.set(key, { openUntil: 0, checkedAt: Date.now() });
    await this.redis.del(key);
  }

  /** Whether some process has this breaker open. */
  async isOpen(scope: BreakerScope): Promise<boolean> {
    return (await this.anyOpen([scope])) !== undefined;
  }

  /** The first of `scopes` some process has open, or undefined (stale ones read in one round trip). */
  async anyOpen(scopes: readonly BreakerScope[]): Promise<BreakerScope | undefined> {
    const now = Date.now();
    const keys = scopes.map((s) => this.key(s));
    const stale = keys.filter((k) => {
      const c = this.#seen.get(k);
      return !c || now - c.checkedAt >= this.refreshMs;
    });
    if (stale.length > 0) {
      const pipeline = this.redis.pipeline();
      for (const k of stale) pipeline.pttl(k);
      const answers = (await pipeline.exec()) ?? [];
      stale.forEach((k, i) => {
        const [err, ttl] = answers[i] ?? [null, -2];
        if (err) throw err;
        const ms = Number(ttl);
        this.#seen.set(k, { openUntil: ms > 0 ? now + ms : 0, checkedAt: now });
      });
    }
    const i = keys.findIndex((k) => (this.#seen.get(k)?.openUntil ?? 0) > now);
    return i < 0 ? undefined : scopes[i];
  }
}
