/**
 * Hashed sparse features shared by training and inference, so the two can never drift apart.
 * CJK text gives character unigrams and bigrams (no word segmenter needed); Latin text gives word
 * unigrams, word bigrams and character 3-grams (which make typos land near the right word);
 * digits fold to `0` so "4 点" and "5 点" look alike. A few shape features (length, clause count)
 * help tell a multi-step brief from a one-liner.
 */

/** Sparse feature vector: parallel arrays of bucket indexes and values. */
export interface SparseVector {
  index: Int32Array;
  value: Float32Array;
}

const HAN = /\p{Script=Han}/u;

/** 32-bit FNV-1a over UTF-16 code units. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Lists the feature strings of a normalised request (exported for tests and explanations). */
export function featureStrings(normalized: string): string[] {
  const out: string[] = ['bias'];
  const text = normalized.replace(/[0-9]+/g, '0');
  let prevHan = '';
  let word = '';
  const words: string[] = [];
  let clauses = 1;
  let hanCount = 0;
  const flushWord = () => {
    if (word) {
      words.push(word);
      word = '';
    }
  };
  for (const ch of text) {
    if (HAN.test(ch)) {
      flushWord();
      hanCount++;
      out.push(`u:${ch}`);
      if (prevHan) out.push(`b:${prevHan}${ch}`);
      prevHan = ch;
      continue;
    }
    prevHan = '';
    if (/[a-z0-9]/.test(ch)) {
      word += ch;
      continue;
    }
    flushWord();
    if (/[,，;；。.!?！？、]/.test(ch)) clauses++;
    if (/[?？]/.test(ch)) out.push('p:?');
  }
  flushWord();
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    out.push(`w:${w}`);
    if (i > 0) out.push(`w2:${words[i - 1]} ${w}`);
    const padded = ` ${w} `;
    for (let j = 0; j + 3 <= padded.length; j++) out.push(`c:${padded.slice(j, j + 3)}`);
  }
  const units = hanCount + words.length;
  out.push(`len:${units === 0 ? 0 : Math.min(6, Math.floor(Math.log2(units)) + 1)}`);
  out.push(`cl:${Math.min(clauses, 4)}`);
  if (words.length && words.length >= hanCount) out.push('lang:latin');
  else if (hanCount) out.push('lang:han');
  else out.push('lang:none');
  return out;
}

/** Hashes feature strings into `dim` buckets; values are counts scaled to unit L2 norm. */
export function hashFeatures(normalized: string, dim: number): SparseVector {
  const counts = new Map<number, number>();
  for (const f of featureStrings(normalized)) {
    const b = fnv1a(f) % dim;
    counts.set(b, (counts.get(b) ?? 0) + 1);
  }
  let norm = 0;
  for (const c of counts.values()) norm += c * c;
  const scale = 1 / Math.sqrt(norm);
  const index = new Int32Array(counts.size);
  const value = new Float32Array(counts.size);
  let i = 0;
  for (const [b, c] of counts) {
    index[i] = b;
    value[i] = c * scale;
    i++;
  }
  return { index, value };
}
