import { type Cipher, createCipheriv, hash, hkdfSync } from 'node:crypto';
import { TwinlineError } from '../../core/index.js';

/** A watermark could not be built or read (empty key, field too long, no tenants to try). */
export class WatermarkError extends TwinlineError {}

/** The two keys a tenant's watermarks are sealed with. */
export interface TenantWatermarkKeys {
  /** HMAC-SHA256 key of the synthetic IV (authenticates the payload). */
  readonly mac: Buffer;
  /** AES-256 key the payload is encrypted with. */
  readonly enc: Buffer;
  /** HMAC-SHA256(mac, data), from the key's precomputed pads (RFC 2104) and two one-shot hashes. */
  hmac(data: Uint8Array): Buffer;
  /** AES-256(enc) of whole 16-byte blocks, on one long-lived ECB context (the CTR keystream). */
  encryptBlocks(blocks: Buffer): Buffer;
}

const SHA256_BLOCK = 64;
let scratch = Buffer.allocUnsafe(SHA256_BLOCK + 256);
const outerScratch = Buffer.allocUnsafe(SHA256_BLOCK + 32);

function keysOf(mac: Buffer, enc: Buffer): TenantWatermarkKeys {
  const inner = Buffer.alloc(SHA256_BLOCK, 0x36);
  const outer = Buffer.alloc(SHA256_BLOCK, 0x5c);
  for (let i = 0; i < mac.length; i++) {
    inner[i]! ^= mac[i]!;
    outer[i]! ^= mac[i]!;
  }
  // One ECB context per tenant, reused for every seal: creating a cipher costs more than using it.
  let ecb: Cipher | undefined;
  return {
    mac,
    enc,
    hmac(data) {
      // Scratch buffers, reused: this is synchronous and `hash` reads its input before returning.
      if (scratch.length < SHA256_BLOCK + data.length)
        scratch = Buffer.allocUnsafe(SHA256_BLOCK + data.length);
      inner.copy(scratch, 0);
      scratch.set(data, SHA256_BLOCK);
      outer.copy(outerScratch, 0);
      outerScratch.set(
        hash('sha256', scratch.subarray(0, SHA256_BLOCK + data.length), 'buffer'),
        SHA256_BLOCK,
      );
      return hash('sha256', outerScratch, 'buffer');
    },
    encryptBlocks(blocks) {
      if (!ecb) {
        ecb = createCipheriv('aes-256-ecb', enc, null);
        ecb.setAutoPadding(false);
      }
      return ecb.update(blocks);
    },
  };
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
  const cacheKey = `${typeof key === 'string' ? key : ikm.toString('base64')}\u0000${tenant}`;
  let k = derived.get(cacheKey);
  if (!k) {
    const okm = Buffer.from(hkdfSync('sha256', ikm, SALT, Buffer.from(`tenant:${tenant}`, 'utf8'), 64));
    k = keysOf(okm.subarray(0, 32), okm.subarray(32, 64));
    if (derived.size >= CACHE_LIMIT) derived.clear();
    derived.set(cacheKey, k);
  }
  return k;
}
