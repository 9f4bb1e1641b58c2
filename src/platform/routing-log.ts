import type { RouteDecision } from '../lines/index.js';

/** One routing decision as the console shows it. */
export interface RoutingEntry {
  readonly time: string;
  readonly tenant: string;
  readonly user: string;
  readonly query: string;
  readonly target: RouteDecision['target'];
  readonly scores: RouteDecision['scores'];
  readonly rule: string | null;
  /** The domain routes by its rules alone. */
  readonly routing?: 'rules-only';
}

/** A fixed-size ring of one tenant's entries: adding is O(1) (`shift` would move every entry). */
class Ring {
  readonly #slots: (RoutingEntry | undefined)[];
  #next = 0;
  #size = 0;

  constructor(capacity: number) {
    this.#slots = new Array<RoutingEntry | undefined>(capacity);
  }

  add(entry: RoutingEntry): void {
    this.#slots[this.#next] = entry;
    this.#next = (this.#next + 1) % this.#slots.length;
    if (this.#size < this.#slots.length) this.#size++;
  }

  *newestFirst(): Generator<RoutingEntry> {
    const n = this.#slots.length;
    for (let k = 1; k <= this.#size; k++) yield this.#slots[(this.#next - k + n) % n]!;
  }
}

/**
 * The most recent routing decisions in memory, one bounded ring per tenant: one tenant's traffic
 * can never evict another's history. Reads name the tenant (and, for a caller who may not see
 * colleagues' queries, the user); the server decides which (docs/server.md, "Visibility").
 */
export class RoutingLog {
  readonly #rings = new Map<string, Ring>();
  readonly #capacity: number;

  /**
   * @param capacity entries kept per tenant
   * @param maxTenants rings kept at most; the tenant written to least recently is dropped first
   */
  constructor(
    capacity = 500,
    private readonly maxTenants = 10_000,
  ) {
    this.#capacity = Math.max(1, Math.floor(capacity));
  }

  add(entry: RoutingEntry): void {
    let ring = this.#rings.get(entry.tenant);
    if (ring) this.#rings.delete(entry.tenant);
    else ring = new Ring(this.#capacity);
    // Re-inserted last: the map's order is least recently written first.
    this.#rings.set(entry.tenant, ring);
    ring.add(entry);
    if (this.#rings.size > this.maxTenants) {
      const oldest = this.#rings.keys().next().value as string;
      this.#rings.delete(oldest);
    }
  }

  /** The tenant's newest entries first; with `user`, only that user's. */
  recent(tenant: string, limit = 50, user?: string): RoutingEntry[] {
    const out: RoutingEntry[] = [];
    const ring = this.#rings.get(tenant);
    if (!ring || limit <= 0) return out;
    for (const e of ring.newestFirst()) {
      if (user !== undefined && e.user !== user) continue;
      out.push(e);
      if (out.length >= limit) break;
    }
    return out;
  }
}
