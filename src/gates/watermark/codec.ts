/**
 * Session watermarks: tenant, user, session and channel packed into compact bytes, tagged with
 * an HMAC (so a watermark cannot be forged or altered without the key), written as zero-width
 * characters spread through the text and repeated, so a partial copy still carries a whole frame.
 *
 * Frame = START, then 2 bits per invisible character, then END. Bytes: version, flags, then
 * length-prefixed UTF-8 fields (the session as 16 raw bytes when it is a UUID), then the first
 * 8 bytes of HMAC-SHA256(key, preceding bytes).
 */
import { hash, timingSafeEqual } from 'node:crypto';
import { TwinlineError } from '../../core/index.js';

export interface Watermark {
  readonly tenant: string;
  readonly user: string;
  readonly session: string;
  readonly channel: string;
}

export interface WatermarkKeyOptions {
  /** HMAC key from config (`gates.watermark.key`). */
  readonly key: string | Uint8Array;
}

export interface EmbedOptions extends WatermarkKeyOptions {
  /** Visible characters between two invisible chunks (default 6). */
  readonly spacing?: number;
  /** Invisible symbols per chunk (default 12). */
  readonly chunk?: number;
}

/** A watermark could not be built (field too long, empty key). */
export class WatermarkError extends TwinlineError {}

const SYMBOLS = ['\u200b', '\u200c', '\u200d', '\u2060'] as const;
const START = '\u2063';
const END = '\u2062';
const VERSION = 1;
const MAC_BYTES = 8;
const FLAG_UUID_SESSION = 1;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const enc = new TextEncoder();
const dec = new TextDecoder('utf-8', { fatal: true });

// Every answer is watermarked with the same configured key: keep its HMAC pads instead of
// re-encoding the string and re-deriving them for each answer. Bounded so rotating keys in a
// long-lived process cannot grow it.
const keyPads = new Map<string, HmacPads>();
const KEY_CACHE_LIMIT = 16;
const SHA256_BLOCK = 64;

/** The key XOR-ed into HMAC's inner and outer pads (RFC 2104), each a block long. */
interface HmacPads {
  readonly inner: Uint8Array;
  readonly outer: Uint8Array;
}

function hmacKey(key: string | Uint8Array): HmacPads {
  if (typeof key !== 'string') return hmacPads(keyBytes(key));
  let k = keyPads.get(key);
  if (!k) {
    k = hmacPads(keyBytes(key));
    if (keyPads.size >= KEY_CACHE_LIMIT) keyPads.clear();
    keyPads.set(key, k);
  }
  return k;
}

function hmacPads(key: Uint8Array): HmacPads {
  const k = key.length > SHA256_BLOCK ? hash('sha256', key, 'buffer') : key;
  const inner = new Uint8Array(SHA256_BLOCK).fill(0x36);
  const outer = new Uint8Array(SHA256_BLOCK).fill(0x5c);
  for (let i = 0; i < k.length; i++) {
    inner[i]! ^= k[i]!;
    outer[i]! ^= k[i]!;
  }
  return { inner, outer };
}

function keyBytes(key: string | Uint8Array): Uint8Array {
  const k = typeof key === 'string' ? enc.encode(key) : key;
  if (k.length === 0)
    throw new WatermarkError('gates.watermark-key', 'watermark key is empty', {
      where: 'gates.watermark.key',
    });
  return k;
}

/**
 * HMAC-SHA256(key, data), first MAC_BYTES bytes: H(outer ‖ H(inner ‖ data)) with two one-shot
 * hashes — the same bytes as `createHmac`, without building an Hmac object per answer.
 */
function mac(pads: HmacPads, data: Uint8Array): Uint8Array {
  // Scratch buffers, reused: this is synchronous and `hash` reads its input before returning.
  if (macScratch.length < SHA256_BLOCK + data.length) macScratch = new Uint8Array(SHA256_BLOCK + data.length);
  const first = macScratch.subarray(0, SHA256_BLOCK + data.length);
  first.set(pads.inner);
  first.set(data, SHA256_BLOCK);
  macOuter.set(pads.outer);
  macOuter.set(hash('sha256', first, 'buffer'), SHA256_BLOCK);
  return hash('sha256', macOuter, 'buffer').subarray(0, MAC_BYTES);
}

let macScratch = new Uint8Array(SHA256_BLOCK + 256);
const macOuter = new Uint8Array(SHA256_BLOCK + 32);

// Tenant, user and channel repeat on every answer: keep their bytes (bounded, like the keys).
const fieldCache = new Map<string, Uint8Array>();
const FIELD_CACHE_LIMIT = 1024;

/** A field's UTF-8 bytes (never altered by callers); `remember` for fields that repeat. */
function fieldBytes(value: string, name: string, remember = true): Uint8Array {
  const known = remember ? fieldCache.get(value) : undefined;
  if (known) return known;
  const b = enc.encode(value);
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

function hexNibble(c: number): number {
  return c <= 0x39 ? c - 0x30 : c - 0x57; // '0'-'9', 'a'-'f' (UUID_RE admits only these)
}

/** Packs a watermark into authenticated bytes. */
export function packWatermark(wm: Watermark, options: WatermarkKeyOptions): Uint8Array {
  // Written straight into one buffer: this runs on every answer the output gate releases.
  const tenant = fieldBytes(wm.tenant, 'tenant');
  const user = fieldBytes(wm.user, 'user');
  const uuid = UUID_RE.test(wm.session);
  const session = uuid ? undefined : fieldBytes(wm.session, 'session', false);
  const channel = fieldBytes(wm.channel, 'channel');
  const bodyLength =
    2 + 1 + tenant.length + 1 + user.length + (session ? 1 + session.length : 16) + 1 + channel.length;
  const out = new Uint8Array(bodyLength + MAC_BYTES);
  out[0] = VERSION;
  out[1] = uuid ? FLAG_UUID_SESSION : 0;
  let at = 2;
  const put = (b: Uint8Array) => {
    out[at++] = b.length;
    out.set(b, at);
    at += b.length;
  };
  put(tenant);
  put(user);
  if (session) put(session);
  else {
    const s = wm.session;
    for (let i = 0; i < s.length; ) {
      if (s.charCodeAt(i) === 0x2d) {
        i++;
        continue;
      }
      out[at++] = (hexNibble(s.charCodeAt(i)) << 4) | hexNibble(s.charCodeAt(i + 1));
      i += 2;
    }
  }
  put(channel);
  out.set(mac(hmacKey(options.key), out.subarray(0, bodyLength)), bodyLength);
  return out;
}

/** Verifies and unpacks; undefined when the bytes are damaged, forged or from another key. */
export function unpackWatermark(bytes: Uint8Array, options: WatermarkKeyOptions): Watermark | undefined {
  if (bytes.length < 2 + MAC_BYTES || bytes[0] !== VERSION) return undefined;
  const body = bytes.subarray(0, bytes.length - MAC_BYTES);
  const tag = bytes.subarray(bytes.length - MAC_BYTES);
  if (!timingSafeEqual(mac(hmacKey(options.key), body), tag)) return undefined;
  let at = 2;
  const read = (): string | undefined => {
    const n = body[at];
    if (n === undefined || at + 1 + n > body.length) return undefined;
    const s = dec.decode(body.subarray(at + 1, at + 1 + n));
    at += 1 + n;
    return s;
  };
  try {
    const tenant = read();
    const user = read();
    let session: string | undefined;
    if (body[1]! & FLAG_UUID_SESSION) {
      const hex = Array.from(body.subarray(at, at + 16), (b) => b.toString(16).padStart(2, '0')).join('');
      at += 16;
      session = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    } else session = read();
    const channel = read();
    if (tenant === undefined || user === undefined || session === undefined || channel === undefined)
      return undefined;
    return { tenant, user, session, channel };
  } catch {
    return undefined;
  }
}

/** The four invisible symbols of each byte value, most significant bits first. */
const BYTE_SYMBOLS: readonly string[] = Array.from(
  { length: 256 },
  (_, b) => SYMBOLS[(b >> 6) & 3]! + SYMBOLS[(b >> 4) & 3]! + SYMBOLS[(b >> 2) & 3]! + SYMBOLS[b & 3]!,
);

/** The invisible frame for a watermark. */
export function watermarkFrame(wm: Watermark, options: WatermarkKeyOptions): string {
  let s = START;
  for (const b of packWatermark(wm, options)) s += BYTE_SYMBOLS[b]!;
  return s + END;
}

/** Exactly the code points JavaScript's `\s` matches, without running a regex per character. */
function isRegexSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * Spreads the frame through `text` in chunks, each after a visible non-space character (so
 * collapsing or re-wrapping whitespace keeps them), and starts the frame again when it ends.
 * Text too short for one spread frame gets the remainder at its end.
 */
export function embedWatermark(text: string, wm: Watermark, options: EmbedOptions): string {
  const frame = watermarkFrame(wm, options);
  const spacing = Math.max(1, options.spacing ?? 6);
  const chunkSize = Math.max(1, options.chunk ?? 12);
  const chunks: string[] = [];
  for (let i = 0; i < frame.length; i += chunkSize) chunks.push(frame.slice(i, i + chunkSize));
  let out = '';
  let visible = 0;
  let next = 0;
  let completed = 0;
  for (const ch of text) {
    out += ch;
    if (isRegexSpace(ch.codePointAt(0)!)) continue;
    visible++;
    if (visible % spacing === 0) {
      out += chunks[next]!;
      next++;
      if (next === chunks.length) {
        next = 0;
        completed++;
      }
    }
  }
  // A text too short for one spread frame still gets a whole one, at its end.
  if (completed === 0) out += next === 0 ? frame : chunks.slice(next).join('') + frame;
  return out;
}

const INVISIBLE_SET = new Set<string>([...SYMBOLS, START, END]);

/** Removes every watermark character (for comparing or re-watermarking text). */
export function stripWatermark(text: string): string {
  let out = '';
  for (const ch of text) if (!INVISIBLE_SET.has(ch)) out += ch;
  return out;
}

export interface DecodedWatermark extends Watermark {
  /** How many complete, authentic frames the text carried. */
  readonly frames: number;
}

/**
 * Recovers the watermark from a (possibly partial, re-spaced) copy. Returns undefined when no
 * complete frame authenticates under `key` — a tampered or forged mark is not decoded.
 */
export function decodeWatermark(text: string, options: WatermarkKeyOptions): DecodedWatermark | undefined {
  let stream = '';
  for (const ch of text) if (INVISIBLE_SET.has(ch)) stream += ch;
  let found: Watermark | undefined;
  let frames = 0;
  for (const part of stream.split(START).slice(1)) {
    const endAt = part.indexOf(END);
    if (endAt < 0) continue;
    const symbols = part.slice(0, endAt);
    if (symbols.length % 4 !== 0) continue;
    const bytes = new Uint8Array(symbols.length / 4);
    for (let i = 0; i < bytes.length; i++) {
      let b = 0;
      for (let k = 0; k < 4; k++)
        b = (b << 2) | SYMBOLS.indexOf(symbols[i * 4 + k] as (typeof SYMBOLS)[number]);
      bytes[i] = b;
    }
    const wm = unpackWatermark(bytes, options);
    if (!wm) continue;
    frames++;
    found ??= wm;
  }
  return found ? { ...found, frames } : undefined;
}
