/**
 * How sealed watermark bytes are written into text: as characters from the Variation Selectors
 * Supplement (U+E0100–U+E01EF). They are default-ignorable and invisible, and as grapheme
 * extenders they join the character before them: no extra caret stop, and selecting or deleting
 * that character takes them along. Only ever placed after punctuation or whitespace (see
 * `boundaries.ts`), never after a letter, a digit or an ideograph (where they could select a
 * glyph variant or stick to a copied word).
 *
 * A frame's bytes become 7-bit data symbols U+E0100 + v, split into 1–4 fragments; each fragment
 * starts with a header symbol U+E0180 + (group·16 + (count−1)·4 + index), where group (0–6) is
 * taken from the frame's first byte so fragments of different frames are not mixed.
 */

const DATA_BASE = 0xe0100;
const HEADER_BASE = 0xe0180;
const HEADER_COUNT = 112; // 0xe0180 … 0xe01ef
export const MAX_FRAGMENTS = 4;

const dataChar: readonly string[] = Array.from({ length: 128 }, (_, v) =>
  String.fromCodePoint(DATA_BASE + v),
);

export function isDataSymbol(cp: number): boolean {
  return cp >= DATA_BASE && cp < HEADER_BASE;
}

export function isHeaderSymbol(cp: number): boolean {
  return cp >= HEADER_BASE && cp < HEADER_BASE + HEADER_COUNT;
}

/** Bytes → 7-bit values (the last one padded with zero bits). */
export function toSevenBit(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 7) {
      bits -= 7;
      out.push((acc >> bits) & 0x7f);
    }
    acc &= (1 << bits) - 1;
  }
  if (bits > 0) out.push((acc << (7 - bits)) & 0x7f);
  return out;
}

/** 7-bit values → bytes (the padding bits dropped). */
export function fromSevenBit(values: readonly number[]): Uint8Array {
  const out = new Uint8Array(Math.floor((values.length * 7) / 8));
  let acc = 0;
  let bits = 0;
  let at = 0;
  for (const v of values) {
    acc = (acc << 7) | v;
    bits += 7;
    if (bits >= 8 && at < out.length) {
      bits -= 8;
      out[at++] = (acc >> bits) & 0xff;
    }
    acc &= (1 << bits) - 1;
  }
  return out;
}

/** The frame written as `count` fragments (strings of symbols), index 0 first. */
export function fragmentsOf(frame: Uint8Array, count: number): string[] {
  const values = toSevenBit(frame);
  const group = (frame[0] ?? 0) % 7;
  const n = Math.max(1, Math.min(MAX_FRAGMENTS, count, values.length));
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const from = Math.floor((i * values.length) / n);
    const to = Math.floor(((i + 1) * values.length) / n);
    let s = String.fromCodePoint(HEADER_BASE + group * 16 + (n - 1) * 4 + i);
    for (let k = from; k < to; k++) s += dataChar[values[k]!]!;
    out.push(s);
  }
  return out;
}

/** One fragment found in a text. */
export interface FoundFragment {
  readonly group: number;
  readonly count: number;
  readonly index: number;
  readonly values: readonly number[];
}

/** Every fragment in `text`, in order: a header symbol and the data symbols right after it. */
export function findFragments(text: string): FoundFragment[] {
  const out: FoundFragment[] = [];
  let current: { group: number; count: number; index: number; values: number[] } | undefined;
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) i++;
    if (isHeaderSymbol(cp)) {
      if (current) out.push(current);
      const h = cp - HEADER_BASE;
      current = { group: Math.floor(h / 16), count: ((h % 16) >> 2) + 1, index: h % 4, values: [] };
    } else if (current && isDataSymbol(cp)) {
      current.values.push(cp - DATA_BASE);
    } else if (current) {
      out.push(current);
      current = undefined;
    }
  }
  if (current) out.push(current);
  return out.filter((f) => f.index < f.count && f.values.length > 0);
}

/**
 * Removes every watermark fragment (a header symbol and the data symbols after it). A lone
 * variation selector that belongs to the text — an ideographic variant after a CJK character —
 * has no header before it and stays.
 */
export function stripSymbols(text: string): string {
  // Every symbol lies in U+E0000–U+E03FF, whose high surrogate is U+DB40.
  if (!text.includes('\udb40')) return text;
  let out = '';
  let inFragment = false;
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i)!;
    const wide = cp > 0xffff;
    if (isHeaderSymbol(cp)) inFragment = true;
    else if (!(inFragment && isDataSymbol(cp))) {
      inFragment = false;
      out += wide ? text.slice(i, i + 2) : text[i];
    }
    if (wide) i++;
  }
  return out;
}
