/**
 * Normalisation that every detector runs on. Attackers hide instructions behind lookalike
 * letters, full-width forms, invisible characters, entities and letters spaced apart; the
 * detectors only need to recognise the plain form. Every output character remembers the
 * range of the ORIGINAL text it came from, so a finding can point back at what the user sent.
 */

/** Normalised text plus, for each of its UTF-16 units, the original range it came from. */
export interface NormalizedText {
  readonly text: string;
  /** `starts[i]` is the original offset where normalised unit `i` came from. */
  readonly starts: Int32Array;
  /** `ends[i]` is the original end offset (exclusive) of normalised unit `i`. */
  readonly ends: Int32Array;
  /** Whether anything besides case and NFKC changed (invisibles, homoglyphs, entities, rejoins). */
  readonly obfuscated: boolean;
}

/** Zero-width, joiners, bidi embeddings/isolates/marks, soft hyphen, BOM, tag characters, variation selectors. */
export function isInvisible(cp: number): boolean {
  return (
    cp === 0x00ad ||
    cp === 0x034f ||
    cp === 0x061c ||
    cp === 0x180e ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2060 && cp <= 0x206f) ||
    cp === 0xfeff ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    (cp >= 0xe0000 && cp <= 0xe007f) ||
    // Variation selectors 17–256: also what session watermarks are written in.
    (cp >= 0xe0100 && cp <= 0xe01ef)
  );
}

/** Cyrillic and Greek letters that render like Latin ones (lower-case targets). */
const HOMOGLYPHS: Readonly<Record<number, string>> = (() => {
  const pairs: Array<[string, string]> = [
    ['а', 'a'],
    ['в', 'b'],
    ['с', 'c'],
    ['е', 'e'],
    ['ё', 'e'],
    ['һ', 'h'],
    ['і', 'i'],
    ['ї', 'i'],
    ['ј', 'j'],
    ['к', 'k'],
    ['м', 'm'],
    ['н', 'h'],
    ['о', 'o'],
    ['р', 'p'],
    ['ѕ', 's'],
    ['т', 't'],
    ['у', 'y'],
    ['х', 'x'],
    ['ԁ', 'd'],
    ['ԛ', 'q'],
    ['ԝ', 'w'],
    ['ɡ', 'g'],
    ['ı', 'i'],
    ['α', 'a'],
    ['β', 'b'],
    ['ε', 'e'],
    ['η', 'n'],
    ['ι', 'i'],
    ['κ', 'k'],
    ['ν', 'v'],
    ['ο', 'o'],
    ['ρ', 'p'],
    ['τ', 't'],
    ['υ', 'u'],
    ['χ', 'x'],
    ['γ', 'y'],
    ['ω', 'w'],
    ['ϲ', 'c'],
    ['ϳ', 'j'],
  ];
  const out: Record<number, string> = {};
  for (const [from, to] of pairs) {
    out[from.codePointAt(0)!] = to;
    const upper = from.toUpperCase();
    if (upper !== from) out[upper.codePointAt(0)!] = to;
  }
  return out;
})();

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  sol: '/',
  colon: ':',
  lpar: '(',
  rpar: ')',
  period: '.',
  comma: ',',
  excl: '!',
  quest: '?',
  lsqb: '[',
  rsqb: ']',
  num: '#',
};

// ignoreBOM: a leading U+FEFF unit is text here, not a byte-order mark to drop.
const UTF16 = new TextDecoder('utf-16le', { ignoreBOM: true });
/** Uint16Array memory is in platform order; the decoder reads little-endian. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Growable parallel arrays: UTF-16 units of the output and the original range of each. */
class Builder {
  units: Uint16Array;
  starts: Int32Array;
  ends: Int32Array;
  length = 0;
  /** Whether a UTF-16 surrogate may be among the units (then `text()` must keep lone ones). */
  surrogates = false;
  constructor(capacity: number) {
    const n = Math.max(16, capacity);
    [this.starts, this.ends, this.units] = Builder.arrays(n);
  }
  /**
   * The three arrays as views of one buffer (starts, ends, then units: each 4-byte aligned), so a
   * builder costs one backing store instead of three — every scanned text makes at least one.
   */
  private static arrays(n: number): [Int32Array, Int32Array, Uint16Array] {
    const buffer = new ArrayBuffer(n * 10);
    return [
      new Int32Array(buffer, 0, n),
      new Int32Array(buffer, n * 4, n),
      new Uint16Array(buffer, n * 8, n),
    ];
  }
  private grow(): void {
    const [st, en, u] = Builder.arrays(this.units.length * 2);
    st.set(this.starts);
    en.set(this.ends);
    u.set(this.units);
    this.units = u;
    this.starts = st;
    this.ends = en;
  }
  unit(u: number, start: number, end: number): void {
    if (this.length === this.units.length) this.grow();
    this.units[this.length] = u;
    this.starts[this.length] = start;
    this.ends[this.length] = end;
    this.length++;
  }
  push(s: string, start: number, end: number): void {
    for (let k = 0; k < s.length; k++) {
      const u = s.charCodeAt(k);
      if (u >= 0xd800 && u <= 0xdfff) this.surrogates = true;
      this.unit(u, start, end);
    }
  }
  text(): string {
    // The UTF-16 decoder is several times faster than fromCharCode, but it would replace a lone
    // surrogate with U+FFFD: only text without surrogates takes that path.
    if (!this.surrogates && LITTLE_ENDIAN) return UTF16.decode(this.units.subarray(0, this.length));
    let out = '';
    const CHUNK = 8192;
    for (let i = 0; i < this.length; i += CHUNK) {
      out += String.fromCharCode.apply(
        null,
        this.units.subarray(i, Math.min(this.length, i + CHUNK)) as unknown as number[],
      );
    }
    return out;
  }
}

const foldCache = new Map<number, { out: string; changed: boolean }>();

/** Case-fold and NFKC one code point, then fold lookalikes (memoised: text repeats its letters). */
function foldCodePoint(cp: number): { out: string; changed: boolean } {
  let hit = foldCache.get(cp);
  if (hit === undefined) {
    hit = foldUncached(cp);
    if (foldCache.size < 8192) foldCache.set(cp, hit);
  }
  return hit;
}

function foldUncached(cp: number): { out: string; changed: boolean } {
  const glyph = HOMOGLYPHS[cp];
  if (glyph !== undefined) return { out: glyph, changed: true };
  const raw = String.fromCodePoint(cp);
  if (cp < 0x80) return { out: raw.toLowerCase(), changed: false };
  const nfkc = raw.normalize('NFKC').toLowerCase();
  // NFKC may produce letters that are themselves lookalikes (e.g. full-width Cyrillic).
  let out = '';
  for (const ch of nfkc) out += HOMOGLYPHS[ch.codePointAt(0)!] ?? ch;
  const isWidth = cp >= 0xff01 && cp <= 0xff5e;
  return { out, changed: !isWidth && out !== raw.toLowerCase() && /[a-z]/.test(out) };
}

const ENTITY_RE = /^&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,8});/;
const PERCENT_RUN_RE = /^(?:%[0-9a-fA-F]{2})+/;

/** Decodes a run of %XX escapes as UTF-8; undefined when it is not valid UTF-8. */
function decodePercentRun(run: string): string | undefined {
  try {
    return decodeURIComponent(run);
  } catch {
    return undefined;
  }
}

function firstPass(input: string): { b: Builder; obfuscated: boolean } {
  const b = new Builder(input.length + 8);
  let obfuscated = false;
  let i = 0;
  while (i < input.length) {
    const c = input.charCodeAt(i);
    if (c === 0x26 /* & */) {
      const m = ENTITY_RE.exec(input.slice(i, i + 12));
      if (m) {
        const body = m[1]!;
        let decoded: string | undefined;
        if (body[0] === '#') {
          const n =
            body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
          if (n > 0 && n <= 0x10ffff) decoded = String.fromCodePoint(n);
        } else decoded = NAMED_ENTITIES[body.toLowerCase()];
        if (decoded !== undefined) {
          obfuscated = true;
          const cp = decoded.codePointAt(0)!;
          if (!isInvisible(cp)) b.push(foldCodePoint(cp).out, i, i + m[0].length);
          i += m[0].length;
          continue;
        }
      }
    } else if (c === 0x25 /* % */) {
      const m = PERCENT_RUN_RE.exec(input.slice(i, i + 96));
      if (m && m[0].length >= 6) {
        const decoded = decodePercentRun(m[0]);
        if (decoded !== undefined) {
          obfuscated = true;
          for (const ch of decoded) {
            const cp = ch.codePointAt(0)!;
            if (!isInvisible(cp)) b.push(foldCodePoint(cp).out, i, i + m[0].length);
          }
          i += m[0].length;
          continue;
        }
      }
    }
    // Fast paths: ASCII (fold case), CJK ideographs (NFKC-stable), full-width ASCII forms.
    if (c < 0x80) {
      b.unit(c >= 0x41 && c <= 0x5a ? c + 32 : c, i, i + 1);
      i++;
      continue;
    }
    if ((c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3001 && c <= 0x3035)) {
      b.unit(c, i, i + 1);
      i++;
      continue;
    }
    if (c >= 0xff01 && c <= 0xff5e) {
      const a = c - 0xfee0;
      b.unit(a >= 0x41 && a <= 0x5a ? a + 32 : a, i, i + 1);
      i++;
      continue;
    }
    const cp = input.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    if (isInvisible(cp)) {
      obfuscated = true;
    } else {
      const f = foldCodePoint(cp);
      if (f.changed) obfuscated = true;
      b.push(f.out, i, i + width);
    }
    i += width;
  }
  return { b, obfuscated };
}

const SEP = '[\\s\\-_.*|/\\\\·•,，、~+=:;\'"`^]{1,3}';
// Letters after normalisation (lower-case Latin, Greek, Cyrillic, kana, Han, Hangul). A plain
// class, not \\p{L}: non-unicode regexps run an order of magnitude faster in V8.
const W = '[a-z0-9\\u00c0-\\u024f\\u0370-\\u04ff\\u3040-\\u30ff\\u4e00-\\u9fff\\uac00-\\ud7af]';
/** A single letter, then ≥ 2 more single letters each behind 1–3 separator characters. */
const SPLIT_RUN_RE = new RegExp(`(?<!${W})${W}(?:${SEP}${W}(?!${W})){2,}`, 'g');
const SEP_RE = new RegExp(SEP, 'g');
const HAN_RE = /[\u4e00-\u9fff]/;

/**
 * Re-joins letters spread apart ("i-g-n-o-r-e", "忽 略 之 前"). A run is a sequence of single
 * letters of length ≥ 4 (Latin) or ≥ 3 (Han). The run's most common separator is removed; any
 * other separator becomes one space (the word gap).
 */
function rejoinSplitLetters(t: string, src: Builder): { text: string; b: Builder; changed: boolean } {
  let out: Builder | undefined;
  let copied = 0;
  const copy = (from: number, to: number) => {
    for (let k = from; k < to; k++) out!.unit(src.units[k]!, src.starts[k]!, src.ends[k]!);
  };
  // exec on the shared regex, not matchAll: matchAll builds a new RegExp on every call, and most
  // texts have no split run at all. Nothing in the loop body uses SPLIT_RUN_RE.
  SPLIT_RUN_RE.lastIndex = 0;
  for (let m = SPLIT_RUN_RE.exec(t); m !== null; m = SPLIT_RUN_RE.exec(t)) {
    const run = m[0];
    const seps = [...run.matchAll(SEP_RE)];
    const letterCount = seps.length + 1;
    if (letterCount < (HAN_RE.test(run[0]!) ? 3 : 4)) continue;
    if (!out) {
      out = new Builder(t.length);
      out.surrogates = src.surrogates;
    }
    const base = m.index;
    copy(copied, base);
    const counts = new Map<string, number>();
    for (const sep of seps) counts.set(sep[0], (counts.get(sep[0]) ?? 0) + 1);
    let dominant = '';
    let best = 0;
    for (const [sep, n] of counts) if (n > best) [dominant, best] = [sep, n];
    let p = 0;
    for (const sep of seps) {
      const at = sep.index;
      copy(base + p, base + at);
      if (sep[0] !== dominant)
        out.unit(0x20, src.starts[base + at]!, src.ends[base + at + sep[0].length - 1]!);
      p = at + sep[0].length;
    }
    copy(base + p, base + run.length);
    copied = base + run.length;
  }
  if (!out) return { text: t, b: src, changed: false };
  copy(copied, t.length);
  return { text: out.text(), b: out, changed: true };
}

/**
 * Normalises `input` for detection: entities and %-escapes decoded, invisibles dropped, NFKC
 * (so full-width → half-width), lower-case, homoglyphs folded, spaced-out letters re-joined.
 */
export function normalizeText(input: string): NormalizedText {
  const first = firstPass(input);
  const joined = rejoinSplitLetters(first.b.text(), first.b);
  const b = joined.b;
  return {
    text: joined.text,
    starts: b.starts.subarray(0, b.length),
    ends: b.ends.subarray(0, b.length),
    obfuscated: first.obfuscated || joined.changed,
  };
}

/** Maps a [start, end) range of normalised text back to the original text. */
export function toOriginalRange(
  n: NormalizedText,
  start: number,
  end: number,
): { start: number; end: number } {
  if (n.text.length === 0) return { start: 0, end: 0 };
  const s = Math.min(Math.max(start, 0), n.text.length - 1);
  const e = Math.min(Math.max(end - 1, s), n.text.length - 1);
  return { start: n.starts[s]!, end: n.ends[e]! };
}
