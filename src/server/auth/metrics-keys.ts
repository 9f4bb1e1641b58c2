import { timingSafeEqual } from 'node:crypto';
import { hashApiKey } from './api-keys.js';

/** A credential for `GET /metrics`: the operator's, not any tenant's (only its hash is stored). */
export interface MetricsKeyEntry {
  /** `sha256:<hex>` of the key. */
  readonly hash: string;
  readonly label?: string;
}

/**
 * The keys that may read `/metrics` on the API listener. They belong to the operator (e.g. the
 * Prometheus scraper) and identify no tenant or user, so a tenant's API key never opens the
 * metrics, and a metrics key opens nothing else.
 */
export class MetricsKeys {
  readonly #hashes: Buffer[];

  constructor(entries: readonly MetricsKeyEntry[]) {
    this.#hashes = entries.map((e) => {
      if (!/^sha256:[0-9a-f]{64}$/.test(e.hash)) {
        throw new RangeError(`metrics key ${e.label ?? ''}: hash must be sha256:<64 hex>`);
      }
      return Buffer.from(e.hash);
    });
  }

  get size(): number {
    return this.#hashes.length;
  }

  /** Whether `presented` is one of the metrics keys (every stored hash compared in constant time). */
  accepts(presented: string): boolean {
    const h = Buffer.from(hashApiKey(presented));
    let found = false;
    for (const stored of this.#hashes)
      if (stored.length === h.length && timingSafeEqual(stored, h)) found = true;
    return found;
  }
}
