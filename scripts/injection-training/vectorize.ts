/**
 * Turns labelled texts into the learned scorer's window vectors, with exactly the features the
 * scanner computes (src/gates/input/learned/windows.ts): normalise, run the recognisers, cut
 * windows, count n-gram buckets per window (value count/√n), add the named features (value 1).
 */
import { type Channel, normalizeText } from '../../src/gates/input/index.js';
import { foldLeetspeak } from '../../src/gates/input/learned/occurrences.js';
import { pastedSegments, pastedWindows } from '../../src/gates/input/learned/pasted.js';
import {
  type TextFeatures,
  textFeatures,
  type WindowSet,
  windowingOf,
  windowNamed,
} from '../../src/gates/input/learned/windows.js';
import { decodeBase64Payloads } from '../../src/gates/input/payloads.js';
import { type Hit, learnedInputs, recogniserHits } from '../../src/gates/input/scan.js';

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
  /** written rows held back from placing the cut: fitted on, never in the calibration split */
  fitOnly?: boolean;
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
  /** user inputs: the windows of their pasted parts as a tool output (src/gates/input/learned/pasted.ts) */
  pasted?: WindowVector[];
}

/** The hits the scanner passes to the learned scorer, including the obfuscation marker. */
export function scannerHits(text: string): { normalized: string; hits: Hit[]; folded: string | null } {
  const norm = normalizeText(text);
  // folded once, as scanText folds it, and handed to every reader (null: nothing to fold)
  const folded = foldLeetspeak(norm.text) ?? null;
  return { normalized: norm.text, hits: learnedInputs(norm, recogniserHits(norm.text, folded)), folded };
}

/** Window vectors of already-extracted features: the windows `keep` selects, read as `among` says. */
function windowVectors(f: TextFeatures, among: WindowSet, keep: (w: number) => boolean): WindowVector[] {
  const out: WindowVector[] = [];
  const counts = new Map<number, number>();
  const named: number[] = [];
  for (let w = 0; w < f.windows.length; w++) {
    if (!keep(w)) continue;
    const { lo, hi } = f.windows[w]!;
    counts.clear();
    for (let i = lo; i < hi; i++) {
      const b = f.occ.bucket[i]!;
      counts.set(b, (counts.get(b) ?? 0) + 1);
    }
    const scale = hi > lo ? 1 / Math.sqrt(hi - lo) : 0;
    windowNamed(f, w, named, among);
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

function vectorizeNormalized(
  normalized: string,
  hits: Hit[],
  folded: string | null,
  channel: Channel,
): WindowVector[] {
  return windowVectors(textFeatures(normalized, hits, folded, windowingOf(channel)), 'all', () => true);
}

/**
 * Window vectors of one text: its own windows, then those of any base64 payload it carries; for
 * a user input with a pasted part, also that part's windows as the tool-output model reads them
 * (src/gates/input/learned/score.ts `learnedUserScore`, from the same one extraction).
 */
export function vectorizeWithPasted(
  text: string,
  channel: Channel,
): { windows: WindowVector[]; pasted?: WindowVector[] } {
  const { normalized, hits, folded } = scannerHits(text);
  const parts = channel === 'user_input' ? pastedSegments(normalized) : [];
  let windows: WindowVector[];
  let pasted: WindowVector[] | undefined;
  if (parts.length === 0) windows = vectorizeNormalized(normalized, hits, folded, channel);
  else {
    const f = textFeatures(normalized, hits, folded, 'units');
    windows = windowVectors(f, 'fixed', (w) => f.windows[w]!.fixed >= 0);
    const inPart = pastedWindows(f, parts);
    pasted = windowVectors(f, 'all', (w) => inPart[w] === 1);
    if (pasted.length === 0) pasted = undefined;
  }
  for (const p of decodeBase64Payloads(text)) {
    const inner = scannerHits(p.decoded);
    windows.push(...vectorizeNormalized(inner.normalized, inner.hits, inner.folded, channel));
  }
  return pasted ? { windows, pasted } : { windows };
}

/** Window vectors of one text as its channel's model reads them (see `vectorizeWithPasted`). */
export function vectorize(text: string, channel: Channel): WindowVector[] {
  return vectorizeWithPasted(text, channel).windows;
}

export function toExamples(rows: readonly LabelledText[]): Example[] {
  return rows.map((row) => ({
    row,
    y: row.label === 'injection' ? 1 : 0,
    ...vectorizeWithPasted(row.text, row.channel),
  }));
}
