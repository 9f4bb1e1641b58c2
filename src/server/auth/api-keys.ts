import { hash, timingSafeEqual } from 'node:crypto';

/** A configured API key: only its hash is ever stored. */
export interface ApiKeyEntry {
  readonly tenant: string;
  readonly user: string;
  /** `sha256:<hex>` of the key. */
  readonly hash: string;
  readonly label?: string;
}

/** Hash of an API key as stored in config (`sha256:<hex>`). Keys are high-entropy, so no salt is needed. */
export function hashApiKey(key: string): string {
  // One-shot: no Hash object per request.
  return `sha256:${hash('sha256', key, 'hex')}`;
}

/**
 * Looks API keys up by their hash: a presented key is hashed once, the hash found in a map, then
 * compared in constant time — so neither the lookup nor the comparison leaks the stored key.
 */
export class ApiKeyDirectory {
  private readonly byHash = new Map<string, ApiKeyEntry>();

  constructor(entries: readonly ApiKeyEntry[]) {
    for (const entry of entries) {
      if (!/^sha256:[0-9a-f]{64}$/.test(entry.hash)) {
        throw new RangeError(`api key for ${entry.tenant}/${entry.user}: hash must be sha256:<64 hex>`);
      }
      this.byHash.set(entry.hash, entry);
    }
  }

  get size(): number {
    return this.byHash.size;
  }

  /** The entry for a presented key, or undefined. */
  find(presented: string): ApiKeyEntry | undefined {
    const hash = hashApiKey(presented);
    const entry = this.byHash.get(hash);
    if (!entry) return undefined;
    const a = Buffer.from(entry.hash);
    const b = Buffer.from(hash);
    return a.length === b.length && timingSafeEqual(a, b) ? entry : undefined;
  }
}
