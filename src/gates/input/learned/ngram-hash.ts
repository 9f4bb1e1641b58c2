/**
 * The hash functions of the learned scorer's n-gram features (occurrences.ts), shared with the
 * concept table (concepts.ts), which must hash a lexicon entry exactly as the scan hashes the
 * same words in a text. All hashes are 32-bit FNV-style mixes; a feature's bucket is the hash
 * masked to FEATURE_BITS.
 */

/** Buckets of the hashed feature space; a power of two. */
export const FEATURE_BITS = 18;
export const FEATURE_DIM = 1 << FEATURE_BITS;
export const FEATURE_MASK = FEATURE_DIM - 1;

export const FNV = 0x811c9dc5;
const PRIME = 0x01000193;

/** Namespace seeds, so a Han bigram and a Latin 3-gram with the same code units differ. */
export const NS_HAN1 = 0x1b873593;
export const NS_HAN2 = 0x2c1b3c6d;
export const NS_HAN3 = 0x297a2d39;
export const NS_WORD = 0x5bd1e995;
export const NS_WORD2 = 0x68e31da4;
export const NS_CHAR3 = 0x7feb352d;
export const NS_CONCEPT = 0x3b9aca07;
export const NS_CONCEPT_PAIR = 0x4f1bbcdd;

export const mix = (h: number, c: number): number => Math.imul(h ^ c, PRIME);

export const isHan = (c: number): boolean => c >= 0x4e00 && c <= 0x9fff;
export const isLetter = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0xc0 && c <= 0x24f);
export const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
/** `@ $ !` belong to a token only inside a word (leetspeak: `@dm1n`, `pa$$`, `!gnore`). */
export const isLeetSign = (c: number): boolean => c === 0x40 || c === 0x24 || c === 0x21;

/**
 * Whether the token [start, end) of `text` is the part of an e-mail address before its first dot
 * ("x@evil" in "x@evil.example"): an `@` inside it, then a dot and a letter. An address is not
 * leetspeak — folded, "x@evil.example" read "xaevil.example", and the cues that look for an
 * address (docs/gates.md "Learned scorer") never saw one.
 */
export function isAddressToken(text: string, start: number, end: number): boolean {
  if (text.charCodeAt(end) !== 0x2e || !isLetter(text.charCodeAt(end + 1))) return false;
  const at = text.indexOf('@', start + 1);
  return at > start && at < end - 1;
}

export const LEET_FOLD: Readonly<Record<number, number>> = {
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
 * A token's code units as the features read them: letters mixed with digits or signs are
 * leetspeak and fold back to letters; otherwise a digit folds to one shape.
 */
export function foldToken(units: ArrayLike<number>, letters: number, others: number, out: Uint16Array): void {
  const fold = letters > 0 && others > 0 && letters + others >= 3;
  for (let k = 0; k < units.length; k++) {
    let c = units[k]!;
    if (fold) c = LEET_FOLD[c] ?? c;
    else if (isDigit(c)) c = 0x30;
    out[k] = c;
  }
}

/** Hash of a (folded) Latin word. */
export function wordHash(units: ArrayLike<number>, len = units.length): number {
  let h = NS_WORD;
  for (let k = 0; k < len; k++) h = mix(h, units[k]!);
  return h;
}

/** Hash of a Latin word bigram from its two word hashes. */
export const wordPairHash = (prev: number, cur: number): number => mix(mix(NS_WORD2 ^ (prev | 1), 0x20), cur);

export const han1Hash = (c: number): number => mix(NS_HAN1, c);
export const han2Hash = (a: number, b: number): number => mix(mix(NS_HAN2, a), b);
export const han3Hash = (a: number, b: number, c: number): number => mix(mix(mix(NS_HAN3, a), b), c);
