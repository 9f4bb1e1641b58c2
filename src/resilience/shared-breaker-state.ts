import type { Redis } from 'ioredis';

/**
 * Breaker state shared across processes on Redis: a process whose breaker opens writes
 * `<prefix>:<tool>` with the reset timeout as its lifetime, and every process treats the tool as
 * open while that key lives. Reads are cached briefly so the decision path rarely waits on Redis.
 */
export class SharedBreakerState {
  readonly #seen = new Map<string, { openUntil: number; checkedAt: number }>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'twinline:breaker',
    private readonly refreshMs = 250,
  ) {}

  /** Records that `tool`'s breaker opened here, for `ms`. */
  async markOpen(tool: string, ms: number): Promise<void> {
    this.#seen.set(tool, { openUntil: Date.now() + ms, checkedAt: Date.now() });
    await this.redis.set(`${this.prefix}:${tool}`, String(process.pid), 'PX', Math.max(1, ms));
  }

  /** Records that `tool` recovered here (a half-open trial succeeded). */
  async markClosed(tool: string): Promise<void> {
    this.#seen.set(tool, { openUntil: 0, checkedAt: Date.now() });
    await this.redis.del(`${this.prefix}:${tool}`);
  }

  /** Whether some process has `tool`'s breaker open. */
  async isOpen(tool: string): Promise<boolean> {
    const now = Date.now();
    const cached = this.#seen.get(tool);
    if (cached && now - cached.checkedAt < this.refreshMs) return cached.openUntil > now;
    const ttl = await this.redis.pttl(`${this.prefix}:${tool}`);
    const openUntil = ttl > 0 ? now + ttl : 0;
    this.#seen.set(tool, { openUntil, checkedAt: now });
    return openUntil > now;
  }
}
