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
}

/** The most recent routing decisions, per tenant, in memory (a ring of `capacity` entries). */
export class RoutingLog {
  readonly #entries: RoutingEntry[] = [];
  constructor(private readonly capacity = 500) {}

  add(entry: RoutingEntry): void {
    this.#entries.push(entry);
    if (this.#entries.length > this.capacity) this.#entries.shift();
  }

  recent(tenant: string, limit = 50): RoutingEntry[] {
    const out: RoutingEntry[] = [];
    for (let i = this.#entries.length - 1; i >= 0 && out.length < limit; i--) {
      const e = this.#entries[i]!;
      if (e.tenant === tenant) out.push(e);
    }
    return out;
  }
}
