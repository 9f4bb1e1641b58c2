/**
 * Turns labelled texts into the learned scorer's window vectors, with exactly the features the
 * scanner computes (src/gates/input/learned/windows.ts): normalise, run the recognisers, cut
 * windows, count n-gram buckets per window (value count/√n), add the named features (value 1).
 */
import { type Channel, normalizeText } from '../../src/gates/input/index.js';
import { textFeatures, windowingOf, windowNamed } from '../../src/gates/input/learned/windows.js';
import { decodeBase64Payloads } from '../../src/gates/input/payloads.js';
import { type Hit, learnedInputs } from '../../src/gates/input/scan.js';

export interface LabelledText {
  id: string;
  text: string;
  label: 'injection' | 'benign';
  lang: string;
  channel: Channel;
  /** public source name, `generated`, or a fixture set's name */
  source: string;
  subset?: string;
  kind?: string;
  /** generated rows: template family (held out together) */
  template?: string;
  /** written rows: who wrote them (data/written/README.md) */
  hand?: string;
  /** augmented rows: the ids of the written rows they were built from */
  parents?: readonly string[];
}

export interface WindowVector {
  index: Int32Array;
  value: Float32Array;
  /** entries [0, ngrams) are n-gram buckets, the rest named features */
  ngrams: number;
}

export interface Example {
  row: LabelledText;
  y: 0 | 1;
  windows: WindowVector[];
}

/** The hits the scanner passes to the learned scorer, including the obfuscation marker. */
export function scannerHits(text: string): { normalized: string; hits: Hit[] } {
  const norm = normalizeText(text);
  return { normalized: norm.text, hits: learnedInputs(norm) };
}

function vectorizeNormalized(normalized: string, hits: Hit[], channel: Channel): WindowVector[] {
  const f = textFeatures(normalized, hits, undefined, windowingOf(channel));
  const out: WindowVector[] = [];
  const counts = new Map<number, number>();
  const named: number[] = [];
  for (let w = 0; w < f.windows.length; w++) {
    const { lo, hi } = f.windows[w]!;
    counts.clear();
    for (let i = lo; i < hi; i++) {
      const b = f.occ.bucket[i]!;
      counts.set(b, (counts.get(b) ?? 0) + 1);
    }
    const scale = hi > lo ? 1 / Math.sqrt(hi - lo) : 0;
    windowNamed(f, w, named);
    const index = new Int32Array(counts.size + named.length);
    const value = new Float32Array(counts.size + named.length);
    let k = 0;
    for (const [b, c] of counts) {
      index[k] = b;
      value[k++] = c * scale;
    }
    for (const b of named) {
      index[k] = b;
      value[k++] = 1;
    }
    out.push({ index, value, ngrams: counts.size });
  }
  return out;
}

/** Window vectors of one text: its own windows, then those of any base64 payload it carries. */
export function vectorize(text: string, channel: Channel): WindowVector[] {
  const { normalized, hits } = scannerHits(text);
  const out = vectorizeNormalized(normalized, hits, channel);
  for (const p of decodeBase64Payloads(text)) {
    const inner = scannerHits(p.decoded);
    out.push(...vectorizeNormalized(inner.normalized, inner.hits, channel));
  }
  return out;
}

export function toExamples(rows: readonly LabelledText[]): Example[] {
  return rows.map((row) => ({
    row,
    y: row.label === 'injection' ? 1 : 0,
    windows: vectorize(row.text, row.channel),
  }));
}
