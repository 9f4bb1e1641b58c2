import { hkdfSync } from 'node:crypto';
import { TwinlineError } from '../../core/index.js';

/** A watermark could not be built or read (empty key, field too long, no tenants to try). */
export class WatermarkError extends TwinlineError {}

/** The two keys a tenant's watermarks are sealed with. */
export interface TenantWatermarkKeys {
  /** HMAC-SHA256 key of the synthetic IV (authenticates the payload). */
  readonly mac: Buffer;
  /** AES-256 key the payload is encrypted with. */
  readonly enc: Buffer;
}

const SALT = Buffer.from('twinline watermark v2', 'utf8');

// Every answer of a tenant is sealed with the same derived keys: keep them instead of running
// HKDF per answer. Bounded so rotating keys or many tenants cannot grow it without end.
const derived = new Map<string, TenantWatermarkKeys>();
const CACHE_LIMIT = 4096;

/**
 * The keys of one tenant, derived from the deployment's key by HKDF-SHA256 (the tenant name is
 * the `info`): each tenant's watermarks are sealed under keys of their own, and anyone holding
 * only one tenant's keys can read only that tenant's marks.
 */
export function tenantWatermarkKeys(key: string | Uint8Array, tenant: string): TenantWatermarkKeys {
  const ikm = typeof key === 'string' ? Buffer.from(key, 'utf8') : Buffer.from(key);
  if (ikm.length === 0)
    throw new WatermarkError('gates.watermark-key', 'watermark key is empty', {
      where: 'TWINLINE_WATERMARK_KEY',
    });
  const cacheKey = `${ikm.toString('base64')}\u0000${tenant}`;
  let k = derived.get(cacheKey);
  if (!k) {
    const okm = Buffer.from(hkdfSync('sha256', ikm, SALT, Buffer.from(`tenant:${tenant}`, 'utf8'), 64));
    k = { mac: okm.subarray(0, 32), enc: okm.subarray(32, 64) };
    if (derived.size >= CACHE_LIMIT) derived.clear();
    derived.set(cacheKey, k);
  }
  return k;
}
