/**
 * UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then a 12-bit sequence, then 62 random
 * bits. Ids made later sort later — as text too — so a table keyed by them grows at its end: a
 * random (v4) key scatters every insert over the whole primary-key index, which on SQLite made an
 * audit row cost 30–45 µs instead of 18 µs, worse as the table grew.
 *
 * Within one process ids are strictly increasing (RFC 9562 §6.2 method 1: the sequence counts up
 * within a millisecond, and on overflow or a clock step back the timestamp is carried forward).
 */

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

// Random bytes drawn in blocks: one getRandomValues call per 409 ids rather than one per id.
// The global (Web Crypto) loads node's crypto on first use, not with this module.
const POOL = new Uint8Array(4096);
const RANDOM_BYTES = 10; // 2 for the sequence's start, 8 for the 62 random bits
let poolAt = POOL.length;

let lastMs = -1;
let sequence = 0;

/** A new UUIDv7 for `now` (default: the current time), greater than every one made before it here. */
export function uuidV7(now: number = Date.now()): string {
  if (poolAt + RANDOM_BYTES > POOL.length) {
    crypto.getRandomValues(POOL);
    poolAt = 0;
  }
  const r = poolAt;
  poolAt += RANDOM_BYTES;
  let ms = Math.floor(now);
  if (ms > lastMs) {
    // A fresh millisecond: start the sequence at a random point in its lower half, leaving room to count.
    sequence = ((POOL[r]! << 8) | POOL[r + 1]!) & 0x7ff;
  } else {
    ms = lastMs;
    sequence++;
    if (sequence > 0xfff) {
      ms++;
      sequence = 0;
    }
  }
  lastMs = ms;
  const hi = Math.floor(ms / 0x10000); // top 32 bits of the 48-bit time
  const lo = ms % 0x10000;
  return (
    HEX[(hi >>> 24) & 0xff]! +
    HEX[(hi >>> 16) & 0xff]! +
    HEX[(hi >>> 8) & 0xff]! +
    HEX[hi & 0xff]! +
    '-' +
    HEX[lo >>> 8]! +
    HEX[lo & 0xff]! +
    '-' +
    HEX[0x70 | (sequence >>> 8)]! +
    HEX[sequence & 0xff]! +
    '-' +
    HEX[0x80 | (POOL[r + 2]! & 0x3f)]! +
    HEX[POOL[r + 3]!]! +
    '-' +
    HEX[POOL[r + 4]!]! +
    HEX[POOL[r + 5]!]! +
    HEX[POOL[r + 6]!]! +
    HEX[POOL[r + 7]!]! +
    HEX[POOL[r + 8]!]! +
    HEX[POOL[r + 9]!]!
  );
}
