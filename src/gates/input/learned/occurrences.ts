/**
 * Hashed n-gram occurrences of normalised text, with their positions, for the learned injection
 * scorer (docs/gates.md "Learned scorer"). One pass, no strings built on the common path:
 * - Han: character unigrams, bigrams and trigrams (a bigram is most often a word, a trigram
 *   catches the three-character words and word pairs a segmenter would give);
 * - Latin: word unigrams and bigrams, and character 3-grams of " word " (so a typo or an
 *   inflection lands near the right word). A token mixing letters with the digits and signs
 *   of leetspeak (`1gn0r3`, `pr3v10u5`) is folded back to letters first;
 * - digits fold to one shape.
 * Positions are non-decreasing, so a window's occurrences are one contiguous run and a window's
 * sum of weights is a difference of prefix sums (`score.ts`).
 */

/** Buckets of the hashed feature space; a power of two. */
export const FEATURE_BITS = 18;
export const FEATURE_DIM = 1 << FEATURE_BITS;
const MASK = FEATURE_DIM - 1;

const FNV = 0x811c9dc5;
const PRIME = 0x01000193;

/** Namespace seeds, so a Han bigram and a Latin 3-gram with the same code units differ. */
const NS_HAN1 = 0x1b873593;
const NS_HAN2 = 0x2c1b3c6d;
const NS_HAN3 = 0x297a2d39;
const NS_WORD = 0x5bd1e995;
const NS_WORD2 = 0x68e31da4;
const NS_CHAR3 = 0x7feb352d;

const mix = (h: number, c: number) => Math.imul(h ^ c, PRIME);

/** Bucket of a named (dense) feature, e.g. a recogniser id or a cue. */
export function namedBucket(name: string): number {
  let h = FNV ^ 0x3c6ef372;
  for (let i = 0; i < name.length; i++) h = mix(h, name.charCodeAt(i));
  return (h >>> 0) & MASK;
}

/** Reused growable buffers: scanning is synchronous, so one set serves every call. */
export interface Occurrences {
  bucket: Int32Array;
  pos: Int32Array;
  n: number;
}

const shared: Occurrences = { bucket: new Int32Array(8192), pos: new Int32Array(8192), n: 0 };

function push(o: Occurrences, bucket: number, pos: number): void {
  if (o.n === o.bucket.length) {
    const b = new Int32Array(o.n * 2);
    b.set(o.bucket);
    const p = new Int32Array(o.n * 2);
    p.set(o.pos);
    o.bucket = b;
    o.pos = p;
  }
  o.bucket[o.n] = bucket;
  o.pos[o.n] = pos;
  o.n++;
}

const isHan = (c: number) => c >= 0x4e00 && c <= 0x9fff;
const isLetter = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0xc0 && c <= 0x24f);
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
/** `@ $ !` belong to a token only inside a word (leetspeak: `@dm1n`, `pa$$`, `!gnore`). */
const isLeetSign = (c: number) => c === 0x40 || c === 0x24 || c === 0x21;

const LEET_FOLD: Readonly<Record<number, number>> = {
  48: 0x6f, // 0 → o
  49: 0x69, // 1 → i
  51: 0x65, // 3 → e
  52: 0x61, // 4 → a
  53: 0x73, // 5 → s
  55: 0x74, // 7 → t
  57: 0x67, // 9 → g
  64: 0x61, // @ → a
  36: 0x73, // $ → s
  33: 0x69, // ! → i
};

/**
 * `text` with leetspeak folded back to letters inside the tokens `occurrencesOf` folds (letters
 * mixed with digits or `@ $ !`, three or more units: `1gn0r3` → `ignore`); one unit for one unit,
 * so offsets stay valid. Undefined when no token needs folding (most text). A hand-written loop
 * with the same token rules as `occurrencesOf`: a regex here cost a tenth of the scan.
 */
export function foldLeetspeak(text: string): string | undefined {
  let out: string[] | undefined;
  let copied = 0;
  let start = -1;
  let letters = 0;
  let others = 0;
  const endToken = (end: number) => {
    if (letters > 0 && others > 0 && letters + others >= 3) {
      out ??= [];
      out.push(text.slice(copied, start));
      let t = '';
      for (let k = start; k < end; k++) {
        const c = text.charCodeAt(k);
        t += String.fromCharCode(LEET_FOLD[c] ?? c);
      }
      out.push(t);
      copied = end;
    }
    start = -1;
    letters = 0;
    others = 0;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isLetter(c)) {
      if (start < 0) start = i;
      letters++;
    } else if (
      isDigit(c) ||
      (start >= 0 && isLeetSign(c)) ||
      (isLeetSign(c) && isLetter(text.charCodeAt(i + 1)))
    ) {
      if (start < 0) start = i;
      others++;
    } else if (start >= 0) endToken(i);
  }
  if (start >= 0) endToken(text.length);
  if (!out) return undefined;
  out.push(text.slice(copied));
  return out.join('');
}

/** Scratch for one token's code units after folding. */
let tok = new Uint16Array(256);

/**
 * The n-gram occurrences of `text` (already normalised: lower-case, NFKC, lookalikes folded).
 * Returns the shared buffers — valid until the next call.
 */
export function occurrencesOf(text: string): Occurrences {
  const o = shared;
  o.n = 0;
  let p1 = -1; // previous Han code unit (or -1)
  let p2 = -1; // the one before
  let prevWord = 0; // hash of the previous Latin word (0 = none)
  let start = -1;
  let letters = 0;
  let others = 0;
  const endToken = (end: number) => {
    const len = end - start;
    if (len > tok.length) tok = new Uint16Array(len * 2);
    // leetspeak folds only tokens that hold letters as well as digits/signs; plain numbers and
    // plain words keep their units (digits of a plain number fold to one shape)
    const fold = letters > 0 && others > 0 && letters + others >= 3;
    let hw = NS_WORD;
    for (let k = 0; k < len; k++) {
      let c = text.charCodeAt(start + k);
      if (fold) c = LEET_FOLD[c] ?? c;
      else if (isDigit(c)) c = 0x30;
      tok[k] = c;
      hw = mix(hw, c);
    }
    push(o, (hw >>> 0) & MASK, start);
    if (prevWord !== 0) push(o, (mix(mix(NS_WORD2 ^ prevWord, 0x20), hw) >>> 0) & MASK, start);
    prevWord = hw | 1;
    // character 3-grams of " token "
    for (let j = -1; j + 1 < len; j++) {
      const a = j < 0 ? 0x20 : tok[j]!;
      const b = tok[j + 1]!;
      const c = j + 2 < len ? tok[j + 2]! : 0x20;
      push(o, (mix(mix(mix(NS_CHAR3, a), b), c) >>> 0) & MASK, start + Math.max(j, 0));
    }
    start = -1;
    letters = 0;
    others = 0;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isHan(c)) {
      if (start >= 0) endToken(i);
      prevWord = 0;
      // every Han n-gram is placed where it ends, so positions never go back
      push(o, (mix(NS_HAN1, c) >>> 0) & MASK, i);
      if (p1 >= 0) {
        push(o, (mix(mix(NS_HAN2, p1), c) >>> 0) & MASK, i);
        if (p2 >= 0) push(o, (mix(mix(mix(NS_HAN3, p2), p1), c) >>> 0) & MASK, i);
      }
      p2 = p1;
      p1 = c;
      continue;
    }
    p1 = -1;
    p2 = -1;
    if (isLetter(c)) {
      if (start < 0) start = i;
      letters++;
      continue;
    }
    if (isDigit(c) || (start >= 0 && isLeetSign(c)) || (isLeetSign(c) && isLetter(text.charCodeAt(i + 1)))) {
      if (start < 0) start = i;
      others++;
      continue;
    }
    if (start >= 0) endToken(i);
    // a sentence break ends the word-bigram chain; spaces and quotes do not
    if (c !== 0x20 && c !== 0x27 && c !== 0x2d) prevWord = 0;
  }
  if (start >= 0) endToken(text.length);
  return o;
}
