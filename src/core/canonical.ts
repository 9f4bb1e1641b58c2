import { createRequire } from 'node:module';

/**
 * `node:crypto`, loaded on first use: loading it costs a cold process about 5 ms, and one-shot
 * commands that never hash (`route`, `scan`) import this module through `src/core` (docs/startup.md, "Boundaries and module budgets").
 */
let crypto: typeof import('node:crypto') | undefined;
const loadCrypto = (): typeof import('node:crypto') =>
  (crypto ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto'));

/**
 * JSON with object keys sorted at every depth, so equal values always serialise identically —
 * the basis of argument hashes in the audit and of cache keys.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as Record<string, unknown>).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** Hex SHA-256 of a string. */
export function sha256Hex(text: string): string {
  // One-shot: no Hash object per call (this runs for every audited call).
  return loadCrypto().hash('sha256', text, 'hex');
}

/** SHA-256 of the canonical JSON of a value. */
export function hashCanonical(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
