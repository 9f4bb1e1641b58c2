/**
 * The watermark payload, sealed with the tenant's keys: deterministic authenticated encryption in
 * the SIV construction — IV = HMAC-SHA256(macKey, plaintext)[0..8], ciphertext =
 * AES-256-CTR(encKey, counter IV ‖ 0⁶⁴) ⊕ plaintext, sealed = IV ‖ ciphertext. The IV is also the tag:
 * opening decrypts and recomputes it, so a changed bit, another key or a guess opens to nothing.
 * Deterministic on purpose: every answer of a session carries the same frame (so copies from
 * several answers agree), at the price that two leaks of one session can be linked without the key.
 *
 * Plaintext: flags (bit 0: the session is a UUID, stored as 16 raw bytes), then length-prefixed
 * UTF-8 user, session and channel. The tenant is not in it: the tenant's key is what opens it.
 */
import { timingSafeEqual } from 'node:crypto';
import { type TenantWatermarkKeys, tenantWatermarkKeys, WatermarkError } from './keys.js';

/** Who and where an answer went: the session watermark. */
export interface Watermark {
  readonly tenant: string;
  readonly user: string;
  readonly session: string;
  readonly channel: string;
}

/** Bytes of the IV (and tag) at the front of a sealed payload. */
export const IV_BYTES = 8;
const FLAG_UUID_SESSION = 1;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const dec = new TextDecoder('utf-8', { fatal: true });

// User and channel repeat on every answer: keep their bytes (bounded, so no input grows it).
const fieldCache = new Map<string, Buffer>();
const FIELD_CACHE_LIMIT = 1024;

function field(value: string, name: string, remember: boolean): Buffer {
  const known = remember ? fieldCache.get(value) : undefined;
  if (known) return known;
  const b = Buffer.from(value, 'utf8');
  if (b.length > 255)
    throw new WatermarkError('gates.watermark-field', `${name} is longer than 255 bytes`, {
      where: `watermark.${name}`,
    });
  if (remember) {
    if (fieldCache.size >= FIELD_CACHE_LIMIT) fieldCache.clear();
    fieldCache.set(value, b);
  }
  return b;
}

/** The payload, written straight into one buffer (this runs for every answer). */
function plaintext(wm: Watermark): Buffer {
  const uuid = UUID_RE.test(wm.session);
  const user = field(wm.user, 'user', true);
  const channel = field(wm.channel, 'channel', true);
  const session = uuid ? undefined : field(wm.session, 'session', false);
  const out = Buffer.allocUnsafe(2 + user.length + (session ? 1 + session.length : 16) + 1 + channel.length);
  out[0] = uuid ? FLAG_UUID_SESSION : 0;
  out[1] = user.length;
  let at = 2 + user.copy(out, 2);
  if (session) {
    out[at++] = session.length;
    at += session.copy(out, at);
  } else {
    at += out.write(wm.session.replaceAll('-', ''), at, 'hex');
  }
  out[at++] = channel.length;
  channel.copy(out, at);
  return out;
}

function parse(p: Buffer): Omit<Watermark, 'tenant'> | undefined {
  let at = 1;
  const read = (): string | undefined => {
    const n = p[at];
    if (n === undefined || at + 1 + n > p.length) return undefined;
    const s = dec.decode(p.subarray(at + 1, at + 1 + n));
    at += 1 + n;
    return s;
  };
  try {
    const flags = p[0];
    if (flags === undefined || flags > FLAG_UUID_SESSION) return undefined;
    const user = read();
    let session: string | undefined;
    if (flags & FLAG_UUID_SESSION) {
      if (at + 16 > p.length) return undefined;
      const h = p.subarray(at, at + 16).toString('hex');
      at += 16;
      session = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    } else session = read();
    const channel = read();
    if (user === undefined || session === undefined || channel === undefined || at !== p.length)
      return undefined;
    return { user, session, channel };
  } catch {
    return undefined;
  }
}

/** AES-256-CTR with the counter block IV ‖ 0⁶⁴ + i, on the tenant's reusable ECB context. */
function ctr(keys: TenantWatermarkKeys, iv: Uint8Array, data: Buffer): Buffer {
  const blocks = Math.ceil(data.length / 16);
  const counters = Buffer.alloc(blocks * 16);
  for (let b = 0; b < blocks; b++) {
    counters.set(iv, b * 16);
    counters.writeUInt32BE(b, b * 16 + 12);
  }
  const stream = keys.encryptBlocks(counters);
  const out = Buffer.allocUnsafe(data.length);
  for (let i = 0; i < data.length; i++) out[i] = data[i]! ^ stream[i]!;
  return out;
}

function syntheticIv(keys: TenantWatermarkKeys, p: Buffer): Buffer {
  return keys.hmac(p).subarray(0, IV_BYTES);
}

/** Seals a watermark with its tenant's keys (derived from the deployment `key`). */
export function sealWatermark(wm: Watermark, key: string | Uint8Array): Buffer {
  const keys = tenantWatermarkKeys(key, wm.tenant);
  const p = plaintext(wm);
  const iv = syntheticIv(keys, p);
  return Buffer.concat([iv, ctr(keys, iv, p)]);
}

/** Opens sealed bytes with one of `tenants`' keys; undefined when none opens them. */
export function openWatermark(
  sealed: Uint8Array,
  key: string | Uint8Array,
  tenants: readonly string[],
): Watermark | undefined {
  if (sealed.length < IV_BYTES + 4) return undefined;
  const iv = sealed.subarray(0, IV_BYTES);
  const body = Buffer.from(sealed.subarray(IV_BYTES));
  for (const tenant of tenants) {
    const keys = tenantWatermarkKeys(key, tenant);
    const p = ctr(keys, iv, body);
    if (!timingSafeEqual(syntheticIv(keys, p), iv)) continue;
    const fields = parse(p);
    if (fields) return { tenant, ...fields };
  }
  return undefined;
}
