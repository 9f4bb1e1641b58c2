/**
 * Hashed sparse features shared by training and inference, so the two can never drift apart.
 * CJK text gives character unigrams and bigrams (no word segmenter needed); Latin text gives word
 * unigrams, word bigrams and character 3-grams (which make typos land near the right word);
 * digits fold to `0` so "4 点" and "5 点" look alike. A few shape features (length, clause count)
 * help tell a multi-step brief from a one-liner.
 *
 * On top of these, the request's context (`context.ts`): its words, the rules it matches, the
 * systems it names, its head, question form and urgency — the seed's feature families.
 *
 * One walker (`walkFeatures`) defines the features; it hands each one to a sink in parts, so
 * `featureStrings` (for tests and explanations) and `hashFeatures` (the hot path, which folds the
 * parts into FNV-1a without building strings) see exactly the same sequence.
 */

import { type RequestContext, requestContext } from './context.js';

export type { RequestContext };

/** Sparse feature vector: parallel arrays of bucket indexes and values. */
export interface SparseVector {
  index: Int32Array;
  value: Float32Array;
}

interface FeatureSink {
  begin(prefix: string): void;
  part(text: string, from: number, to: number): void;
  end(): void;
}

const HAN = /\p{Script=Han}/u;
const LATIN_OR_DIGIT = /[a-z0-9]/;
const CLAUSE_BREAK = /[,，;；。.!?！？、]/;

function walkFeatures(normalized: string, sink: FeatureSink, extra: readonly string[]): void {
  const emit = (prefix: string, text = '', from = 0, to = text.length) => {
    sink.begin(prefix);
    if (to > from) sink.part(text, from, to);
    sink.end();
  };
  emit('bias');
  const text = normalized.replace(/[0-9]+/g, '0');
  let prevHan = '';
  let wordStart = -1;
  const words: Array<readonly [number, number]> = [];
  let clauses = 1;
  let hanCount = 0;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    const next = i + ch.length;
    if (HAN.test(ch)) {
      if (wordStart >= 0) {
        words.push([wordStart, i]);
        wordStart = -1;
      }
      hanCount++;
      emit('u:', text, i, next);
      if (prevHan) {
        sink.begin('b:');
        sink.part(prevHan, 0, prevHan.length);
        sink.part(ch, 0, ch.length);
        sink.end();
      }
      prevHan = ch;
      i = next;
      continue;
    }
    prevHan = '';
    if (LATIN_OR_DIGIT.test(ch)) {
      if (wordStart < 0) wordStart = i;
      i = next;
      continue;
    }
    if (wordStart >= 0) {
      words.push([wordStart, i]);
      wordStart = -1;
    }
    if (CLAUSE_BREAK.test(ch)) clauses++;
    if (ch === '?' || ch === '？') emit('p:?');
    i = next;
  }
  if (wordStart >= 0) words.push([wordStart, text.length]);
  for (let w = 0; w < words.length; w++) {
    const [s, e] = words[w]!;
    emit('w:', text, s, e);
    if (w > 0) {
      const [ps, pe] = words[w - 1]!;
      sink.begin('w2:');
      sink.part(text, ps, pe);
      sink.part(' ', 0, 1);
      sink.part(text, s, e);
      sink.end();
    }
    // character 3-grams of " word "
    const len = e - s + 2;
    for (let j = 0; j + 3 <= len; j++) {
      sink.begin('c:');
      for (let k = j; k < j + 3; k++) {
        if (k === 0 || k === len - 1) sink.part(' ', 0, 1);
        else sink.part(text, s + k - 1, s + k);
      }
      sink.end();
    }
  }
  const units = hanCount + words.length;
  emit(`len:${units === 0 ? 0 : Math.min(6, Math.floor(Math.log2(units)) + 1)}`);
  emit(`cl:${Math.min(clauses, 4)}`);
  if (words.length && words.length >= hanCount) emit('lang:latin');
  else if (hanCount) emit('lang:han');
  else emit('lang:none');
  for (const f of extra) emit(f);
}

/** Lists the feature strings of a normalised request (for tests and explanations). */
export function featureStrings(
  normalized: string,
  context: RequestContext = requestContext(normalized),
): string[] {
  const out: string[] = [];
  let current = '';
  walkFeatures(
    normalized,
    {
      begin(prefix) {
        current = prefix;
      },
      part(text, from, to) {
        current += text.slice(from, to);
      },
      end() {
        out.push(current);
      },
    },
    context.features,
  );
  return out;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function fnvFold(h: number, text: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  return h;
}

// Reused accumulators: routing is synchronous, so one set per dimension serves every call.
const scratch = new Map<number, { counts: Float64Array; touched: Int32Array }>();

/**
 * Hashes features into `dim` buckets (32-bit FNV-1a of the feature string, mod `dim`); values are
 * counts scaled to unit L2 norm.
 */
export function hashFeatures(
  normalized: string,
  dim: number,
  context: RequestContext = requestContext(normalized),
): SparseVector {
  let s = scratch.get(dim);
  if (!s) {
    s = { counts: new Float64Array(dim), touched: new Int32Array(4096) };
    scratch.set(dim, s);
  }
  const { counts } = s;
  let touched = s.touched;
  let n = 0;
  let h = FNV_OFFSET;
  walkFeatures(
    normalized,
    {
      begin(prefix) {
        h = fnvFold(FNV_OFFSET, prefix, 0, prefix.length);
      },
      part(text, from, to) {
        h = fnvFold(h, text, from, to);
      },
      end() {
        const b = (h >>> 0) % dim;
        if (counts[b] === 0) {
          if (n === touched.length) {
            const grown = new Int32Array(touched.length * 2);
            grown.set(touched);
            touched = grown;
            s.touched = grown;
          }
          touched[n++] = b;
        }
        counts[b]! += 1;
      },
    },
    context.features,
  );
  let norm = 0;
  for (let i = 0; i < n; i++) norm += counts[touched[i]!]! ** 2;
  const scale = 1 / Math.sqrt(norm);
  const index = new Int32Array(n);
  const value = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const b = touched[i]!;
    index[i] = b;
    value[i] = counts[b]! * scale;
    counts[b] = 0;
  }
  return { index, value };
}
