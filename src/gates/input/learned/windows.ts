/**
 * Windowed features of one text for the learned injection scorer. A long document with one
 * injected paragraph must not be averaged away by its benign rest, so the text is cut into
 * overlapping windows and each is scored on its own; the text scores as its worst window
 * (`score.ts`). The same function feeds the trainer (scripts/train-injection.ts), so training
 * and scanning see identical features.
 *
 * A window's features: its n-gram occurrences (each with value 1/√n, n = occurrences in the
 * window), plus named features with value 1 — every recogniser id and type and every cue that
 * matched inside the window, and the window's position (only, first, middle, last). No length
 * feature: in any hand-made corpus attacks and requests differ in length, and that is no signal.
 */
import { CUE_KEYWORD_INDEX_ARTIFACT, prebuiltKeywordIndex } from '../prebuilt-keyword-index.js';
import { RECOGNISER_KEYWORDS } from '../recogniser-keywords.generated.js';
import { RecogniserPrefilter } from '../recogniser-prefilter.js';
import { CUES } from './cues.js';
import { foldLeetspeak, namedBucket, type Occurrences, occurrencesOf } from './occurrences.js';

/** Window length and stride, in normalised UTF-16 units. */
export const WINDOW = 400;
export const STRIDE = 200;

/** A named feature's hit: which bucket, and where in the normalised text. */
export interface NamedHit {
  readonly bucket: number;
  readonly start: number;
  readonly end: number;
  /** Readable name, for explanations. */
  readonly name: string;
}

export interface TextFeatures {
  readonly occ: Occurrences;
  readonly named: readonly NamedHit[];
  /**
   * [start, end) of each window in normalised units, its occurrence range [lo, hi), and its index
   * among the fixed windows (-1 for a sentence or line window).
   */
  readonly windows: ReadonlyArray<{ start: number; end: number; lo: number; hi: number; fixed: number }>;
  /** How many of the windows are fixed ones. */
  readonly fixedCount: number;
  /** Per window, the named hits (indexes into `named`) overlapping it. */
  readonly byWindow: ReadonlyArray<readonly number[]>;
}

const CUE_BUCKETS = CUES.map((cue) => namedBucket(cue.id));
const SHAPE = {
  only: namedBucket('win.only'),
  first: namedBucket('win.first'),
  last: namedBucket('win.last'),
  middle: namedBucket('win.middle'),
};

const bucketCache = new Map<string, number>();
/** Bucket of a recogniser id or type (memoised). */
export function bucketOfName(name: string): number {
  let b = bucketCache.get(name);
  if (b === undefined) {
    b = namedBucket(name);
    bucketCache.set(name, b);
  }
  return b;
}

/** Hits of the recognisers, as the scanner found them (normalised coordinates). */
export interface RecogniserHitLike {
  readonly rule: string;
  readonly type: string;
  readonly start: number;
  readonly end: number;
}

// The recognisers' keyword pre-filter, over the cues: a cue whose required literals are absent
// cannot match, so its regex is skipped (exact, only faster; see recogniser-prefilter.ts).
// Requirements come from the generated table, the index from the build (dist/bundle/), so a
// one-shot scan derives and builds neither.
let prefilter: RecogniserPrefilter | undefined;
const cueMay = new Uint8Array(CUES.length);

/** The cues' keyword pre-filter (built on first use unless the build left its index). */
export function cuePrefilter(): RecogniserPrefilter {
  prefilter ??= new RecogniserPrefilter(CUES, RECOGNISER_KEYWORDS, (keywords) =>
    prebuiltKeywordIndex(keywords, CUE_KEYWORD_INDEX_ARTIFACT),
  );
  return prefilter;
}

/** Every cue hit in `text` (at most a few per cue). */
export function cueHits(text: string): NamedHit[] {
  const out: NamedHit[] = [];
  cuePrefilter().select(text, cueMay);
  for (let k = 0; k < CUES.length; k++) {
    if (cueMay[k] !== 1) continue;
    const re = CUES[k]!.pattern;
    re.lastIndex = 0;
    let n = 0;
    for (let m = re.exec(text); m !== null && n < 4; m = re.exec(text)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      out.push({ bucket: CUE_BUCKETS[k]!, start: m.index, end: m.index + m[0].length, name: CUES[k]!.id });
      n++;
    }
  }
  return out;
}

/**
 * How a text is cut into windows: `fixed` — WINDOW units every STRIDE; `units` — those and also
 * every sentence or line alone and with the next (`unitSpans`). Tool output is cut both ways: a
 * directive planted in a document is a sentence or two, and scored alone it is not diluted by
 * the document around it. A user's request is one message, and its fixed windows measured
 * better (docs/gates.md "Learned scorer").
 */
export type Windowing = 'fixed' | 'units';

/** The windowing of a channel. */
export const windowingOf = (channel: 'user_input' | 'tool_output'): Windowing =>
  channel === 'tool_output' ? 'units' : 'fixed';

/** A window's span, and whether it is a fixed one. */
type Span = [start: number, end: number, fixed: boolean];

/** Fixed and unit windows, sorted by start (a fixed window before a unit window of the same span). */
function withUnits(text: string): Span[] {
  const fixed = charSpans(text.length);
  if (text.length > MAX_UNITS * WINDOW) return fixed;
  return [...fixed, ...unitSpans(text)].sort(
    (a, b) => a[0] - b[0] || a[1] - b[1] || Number(b[2]) - Number(a[2]),
  );
}

/** Fixed windows of WINDOW units every STRIDE. */
function charSpans(len: number): Span[] {
  const out: Span[] = [];
  for (let start = 0; ; start += STRIDE) {
    const end = Math.min(len, start + WINDOW);
    out.push([start, end, true]);
    if (end >= len) break;
  }
  return out;
}

/** A unit shorter than this joins the next one (a heading, a bullet, "Hi Sam,"). */
const MIN_UNIT = 24;
/** Past this many units, the windows are fixed-length instead (a very long text). */
const MAX_UNITS = 400;
const UNIT_BREAK = /[.!?;]+(?:\s+|$)|[。！？；]+\s*|\n\s*/g;

/**
 * The windows of a text: its sentences and lines (units), each on its own and each with the next
 * one, and a unit longer than WINDOW cut into fixed windows. A directive planted in a document is
 * usually a sentence or two: scored on its own, its words are not diluted by the document around
 * it, and a benign twin whose same sentence addresses a person scores as that sentence does.
 */
function unitSpans(text: string): Span[] {
  const len = text.length;
  const units: Array<[number, number]> = [];
  let from = 0;
  UNIT_BREAK.lastIndex = 0;
  for (let m = UNIT_BREAK.exec(text); m !== null; m = UNIT_BREAK.exec(text)) {
    const end = m.index + m[0].length;
    if (end - from >= MIN_UNIT) {
      units.push([from, end]);
      from = end;
    }
  }
  if (from < len) {
    if (units.length > 0 && len - from < MIN_UNIT) units[units.length - 1]![1] = len;
    else units.push([from, len]);
  }
  if (units.length === 0) units.push([0, len]);
  if (units.length > MAX_UNITS) return [];
  const out: Span[] = [];
  for (let u = 0; u < units.length; u++) {
    const [s, e] = units[u]!;
    if (e - s > WINDOW) for (const [a, b] of charSpans(e - s)) out.push([s + a, s + b, false]);
    else out.push([s, e, false]);
    if (u + 1 < units.length && units[u + 1]![1] - s <= 2 * WINDOW) out.push([s, units[u + 1]![1], false]);
  }
  return out;
}

/** Features of one normalised text. The occurrence buffers are shared: use before the next call. */
export function textFeatures(
  text: string,
  hits: readonly RecogniserHitLike[],
  /** the leetspeak-folded view; null when it was folded and nothing needed folding */
  folded: string | null = foldLeetspeak(text) ?? null,
  windowing: Windowing = 'fixed',
): TextFeatures {
  // cues read the leetspeak-folded view (offsets are the same)
  const named: NamedHit[] = cueHits(folded ?? text);
  for (const h of hits) {
    named.push({
      bucket: bucketOfName(`rule.${h.rule}`),
      start: h.start,
      end: h.end,
      name: `rule.${h.rule}`,
    });
    named.push({
      bucket: bucketOfName(`type.${h.type}`),
      start: h.start,
      end: h.end,
      name: `type.${h.type}`,
    });
  }
  const occ = occurrencesOf(text);
  const spans = windowing === 'fixed' ? charSpans(text.length) : withUnits(text);
  const windows: Array<{ start: number; end: number; lo: number; hi: number; fixed: number }> = [];
  // spans are sorted by start; ends may fall back (a pair ends after the next single starts), so
  // each window finds its occurrence range from its own start
  let lo = 0;
  let fixedCount = 0;
  for (const [start, end, isFixed] of spans) {
    while (lo > 0 && occ.pos[lo - 1]! >= start) lo--;
    while (lo < occ.n && occ.pos[lo]! < start) lo++;
    let hi = lo;
    while (hi < occ.n && occ.pos[hi]! < end) hi++;
    windows.push({ start, end, lo, hi, fixed: isFixed ? fixedCount++ : -1 });
  }
  // windows are sorted by start and none is longer than maxLen, so the windows a hit overlaps
  // start in (hit.start − maxLen, hit.end): a binary search and a short walk per hit
  const byWindow: number[][] = windows.map(() => []);
  let maxLen = 0;
  for (const w of windows) maxLen = Math.max(maxLen, w.end - w.start);
  for (let i = 0; i < named.length; i++) {
    const h = named[i]!;
    const hEnd = Math.max(h.end, h.start + 1);
    let a = 0;
    let b = windows.length;
    const from = h.start - maxLen;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (windows[mid]!.start <= from) a = mid + 1;
      else b = mid;
    }
    for (let w = a; w < windows.length && windows[w]!.start < hEnd; w++)
      if (windows[w]!.end > h.start) byWindow[w]!.push(i);
  }
  return { occ, named, windows, fixedCount, byWindow };
}

/**
 * Which windows a channel's model reads: `all`, or only the `fixed` ones — a user's request is
 * read through its fixed windows even where its pasted part is also cut into sentences for the
 * tool-output model (pasted.ts), and then each fixed window's position is its place among them,
 * exactly as if the text had been cut the fixed way only.
 */
export type WindowSet = 'all' | 'fixed';

/** The named features (buckets) of window `w`: its position plus every named hit overlapping it. */
export function windowNamed(
  f: TextFeatures,
  w: number,
  out: number[] = [],
  among: WindowSet = 'all',
): number[] {
  out.length = 0;
  const win = f.windows[w]!;
  const count = among === 'fixed' ? f.fixedCount : f.windows.length;
  const at = among === 'fixed' ? win.fixed : w;
  out.push(count === 1 ? SHAPE.only : at === 0 ? SHAPE.first : at === count - 1 ? SHAPE.last : SHAPE.middle);
  for (const i of f.byWindow[w]!) {
    const h = f.named[i]!;
    if (h.start < win.end && h.end > win.start && !out.includes(h.bucket)) out.push(h.bucket);
  }
  return out;
}
