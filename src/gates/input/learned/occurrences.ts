/**
 * Hashed n-gram occurrences of normalised text, with their positions, for the learned injection
 * scorer (docs/gates.md "Learned scorer"). One pass, no strings built on the common path:
 * - Han: character unigrams, bigrams and trigrams (a bigram is most often a word, a trigram
 *   catches the three-character words and word pairs a segmenter would give);
 * - Latin: word unigrams and bigrams, and character 3-grams of " word " (so a typo or an
 *   inflection lands near the right word). A token mixing letters with the digits and signs
 *   of leetspeak (`1gn0r3`, `pr3v10u5`) is folded back to letters first;
 * - digits fold to one shape;
 * - concept classes and their in-sentence pairs (concepts.ts), in namespaces of their own.
 * Positions are non-decreasing, so a window's occurrences are one contiguous run and a window's
 * sum of weights is a difference of prefix sums (`score.ts`).
 */

import { type ConceptTable, conceptTable } from './concepts.js';
import {
  FEATURE_BITS,
  FEATURE_DIM,
  FNV,
  han1Hash,
  han2Hash,
  han3Hash,
  isAddressToken,
  isDigit,
  isHan,
  isLeetSign,
  isLetter,
  LEET_FOLD,
  FEATURE_MASK as MASK,
  mix,
  NS_CHAR3,
  NS_CONCEPT,
  NS_CONCEPT_PAIR,
  NS_WORD,
  wordPairHash,
} from './ngram-hash.js';

export { FEATURE_BITS, FEATURE_DIM };

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
    if (letters > 0 && others > 0 && letters + others >= 3 && !isAddressToken(text, start, end)) {
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

/** Sentence ends for concept pairs: classes pair only within one sentence. */
const isSentenceEnd = (c: number) =>
  c === 0x2e ||
  c === 0x21 ||
  c === 0x3f ||
  c === 0x3b ||
  c === 0x0a ||
  c === 0x3002 ||
  c === 0xff01 ||
  c === 0xff1f ||
  c === 0xff1b;

/**
 * The n-gram occurrences of `text` (already normalised: lower-case, NFKC, lookalikes folded).
 * With a concept table (concepts.ts), a word, word bigram or Han bigram/trigram of a class also
 * adds its class, and a class's first appearance in a sentence adds its pair with each class
 * already there. Returns the shared buffers — valid until the next call.
 */
export function occurrencesOf(text: string, concepts: ConceptTable | null = conceptTable()): Occurrences {
  const o = shared;
  o.n = 0;
  let p1 = -1; // previous Han code unit (or -1)
  let p2 = -1; // the one before
  let prevWord = 0; // hash of the previous Latin word (0 = none)
  let start = -1;
  let letters = 0;
  let others = 0;
  let seen = 0; // classes met in this sentence, one bit each
  // the table's filter, read inline: most words have no class, and then no call is made
  const filter = concepts?.filter;
  const concept = (h: number, pos: number) => {
    const cls = concepts!.classOf(h);
    if (cls === 0) return;
    push(o, (mix(NS_CONCEPT, cls) >>> 0) & MASK, pos);
    const bit = 1 << cls;
    if ((seen & bit) !== 0) return;
    for (let m = seen; m !== 0; ) {
      const other = 31 - Math.clz32(m);
      m &= ~(1 << other);
      const lo = Math.min(other, cls);
      const hi = Math.max(other, cls);
      push(o, (mix(mix(NS_CONCEPT_PAIR, lo), hi) >>> 0) & MASK, pos);
    }
    seen |= bit;
  };
  const endToken = (end: number) => {
    const len = end - start;
    if (len > tok.length) tok = new Uint16Array(len * 2);
    // leetspeak folds only tokens that hold letters as well as digits/signs; plain numbers and
    // plain words keep their units (digits of a plain number fold to one shape)
    // an e-mail address is not leetspeak (ngram-hash.ts `isAddressToken`)
    const fold = letters > 0 && others > 0 && letters + others >= 3 && !isAddressToken(text, start, end);
    let hw = NS_WORD;
    for (let k = 0; k < len; k++) {
      let c = text.charCodeAt(start + k);
      if (fold) c = LEET_FOLD[c] ?? c;
      else if (isDigit(c)) c = 0x30;
      tok[k] = c;
      hw = mix(hw, c);
    }
    push(o, (hw >>> 0) & MASK, start);
    const pair = prevWord !== 0 ? wordPairHash(prevWord, hw) : 0;
    if (prevWord !== 0) push(o, (pair >>> 0) & MASK, start);
    if (filter !== undefined) {
      if (((filter[hw >>> 19]! >> ((hw >>> 16) & 7)) & 1) !== 0) concept(hw, start);
      if (prevWord !== 0 && ((filter[pair >>> 19]! >> ((pair >>> 16) & 7)) & 1) !== 0) concept(pair, start);
    }
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
      push(o, (han1Hash(c) >>> 0) & MASK, i);
      if (p1 >= 0) {
        const h2 = han2Hash(p1, c);
        push(o, (h2 >>> 0) & MASK, i);
        const h3 = p2 >= 0 ? han3Hash(p2, p1, c) : 0;
        if (p2 >= 0) push(o, (h3 >>> 0) & MASK, i);
        if (filter !== undefined) {
          if (((filter[h2 >>> 19]! >> ((h2 >>> 16) & 7)) & 1) !== 0) concept(h2, i);
          if (p2 >= 0 && ((filter[h3 >>> 19]! >> ((h3 >>> 16) & 7)) & 1) !== 0) concept(h3, i);
        }
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
    if (isSentenceEnd(c)) seen = 0;
  }
  if (start >= 0) endToken(text.length);
  return o;
}
