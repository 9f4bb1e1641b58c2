import { canonicalJson } from '../../core/index.js';
import { freezeShared } from '../../gateway/index.js';

/** Where cached read results live: in process by default, Redis when processes must share them. */
export interface CacheBackend {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Current value of a counter (0 when unset). */
  counters(keys: readonly string[]): Promise<number[]>;
  /** Increments a counter and returns its new value. */
  increment(key: string): Promise<number>;
}

/** In-process backend: a Map with expiry, bounded by `maxEntries` (oldest evicted first). */
export class MemoryCacheBackend implements CacheBackend {
  private readonly entries = new Map<string, { value: string; expires: number }>();
  private readonly versions = new Map<string, number>();

  constructor(
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  async get(key: string): Promise<string | undefined> {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.entries.delete(key);
    this.entries.set(key, { value, expires: this.now() + ttlMs });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  async counters(keys: readonly string[]): Promise<number[]> {
    return keys.map((k) => this.versions.get(k) ?? 0);
  }

  async increment(key: string): Promise<number> {
    const v = (this.versions.get(key) ?? 0) + 1;
    this.versions.set(key, v);
    return v;
  }
}

/** Who a cached result was computed for: results are never shared across users or tenants. */
export interface CacheIdentity {
  readonly tenant: string;
  readonly user: string;
}

/**
 * The quick line's read cache (docs/lines.md, "Quick line and its read cache"): a read-only tool's result is reused for the same
 * tool, canonical arguments and identity within its TTL, and stops being served as soon as a write
 * tool touches one of the data scopes it read. Invalidation bumps a version per (tenant, scope);
 * the versions are part of every key, so a stale entry can never be hit again and simply expires.
 */
export class QuickResultCache {
  hits = 0;
  misses = 0;
  /** The decoded value of recently hit entries, kept while the stored text is unchanged. */
  readonly #decoded = new Map<string, { readonly raw: string; readonly value: unknown }>();
  readonly #maxDecoded: number;

  constructor(
    readonly backend: CacheBackend = new MemoryCacheBackend(),
    { maxDecoded = 2_000 }: { maxDecoded?: number } = {},
  ) {
    this.#maxDecoded = maxDecoded;
  }

  /** The key of a read, bound to the current versions of the scopes it reads. */
  async key(tool: string, scopes: readonly string[], args: unknown, who: CacheIdentity): Promise<string> {
    const versions = await this.backend.counters(scopes.map((s) => versionKey(who.tenant, s)));
    return `r\u0000${who.tenant}\u0000${who.user}\u0000${tool}\u0000${versions.join('.')}\u0000${canonicalJson(args)}`;
  }

  /**
   * The cached value, or undefined. A hit is one value shared by every hit on the entry, frozen at
   * every depth (see `freezeShared`): no caller can change what the next one reads, and the stored
   * text is decoded once rather than on every hit.
   */
  async get(key: string): Promise<unknown | undefined> {
    const raw = await this.backend.get(key);
    if (raw === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    const known = this.#decoded.get(key);
    // The same text (the very string in process; an equal one from Redis) decodes to the same value.
    if (known && known.raw === raw) return known.value;
    const value = freezeShared(JSON.parse(raw) as unknown);
    this.#decoded.delete(key);
    this.#decoded.set(key, { raw, value });
    if (this.#decoded.size > this.#maxDecoded)
      this.#decoded.delete(this.#decoded.keys().next().value as string);
    return value;
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    if (ttlMs <= 0 || value === undefined) return;
    await this.backend.set(key, JSON.stringify(value), ttlMs);
  }

  /** Stops serving cached reads of `scopes` in `tenant` (after a write to that data). */
  async invalidate(tenant: string, scopes: readonly string[]): Promise<void> {
    await Promise.all(scopes.map((s) => this.backend.increment(versionKey(tenant, s))));
  }
}

function versionKey(tenant: string, scope: string): string {
  return `v\u0000${tenant}\u0000${scope}`;
}
