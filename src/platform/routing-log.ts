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

/** The most recent routing decisions, per tenant, in memory (a ring of `capacity` entries). */
export class RoutingLog {
  // A real ring: adding is O(1) (an array's `shift` would move every entry on every request).
  readonly #ring: (RoutingEntry | undefined)[];
  #next = 0;
  #size = 0;

  constructor(capacity = 500) {
    this.#ring = new Array<RoutingEntry | undefined>(Math.max(1, capacity));
  }

  add(entry: RoutingEntry): void {
    this.#ring[this.#next] = entry;
    this.#next = (this.#next + 1) % this.#ring.length;
    if (this.#size < this.#ring.length) this.#size++;
  }

  recent(tenant: string, limit = 50): RoutingEntry[] {
    const out: RoutingEntry[] = [];
    const n = this.#ring.length;
    for (let k = 1; k <= this.#size && out.length < limit; k++) {
      const e = this.#ring[(this.#next - k + n) % n]!;
      if (e.tenant === tenant) out.push(e);
    }
    return out;
  }
}
