/**
 * Session watermarks on text we did not write: how often a leaked excerpt of 1, 2 or 4 sentences
 * still decodes to the right tenant, user, session and channel, what the mark costs in size, and
 * how long embedding and decoding take. Prints one JSON object on the last line.
 *
 * Carrier texts come from the shared evaluation data when it is there (`TWINLINE_SHARED_DIR`,
 * default `../shared` or `/work/shared`): English — the benign records of
 * eval/prompt-injection.jsonl; Chinese — passages of the seed documents. Split before any tuning:
 * `tuning` (selfinstruct; seed 000) and `held_out` (bipia, mtbench, vicunabench, agentdojo; seeds
 * 001, 003, 004), reported apart. Without the shared data, the office domain's own documents.
 *
 * An excerpt is k whole consecutive sentences of the marked text. `grapheme` excerpts end where a
 * person's selection ends — after the last sentence's punctuation together with the invisible
 * characters joined to it (they are one grapheme with it); `visible` excerpts stop right after
 * the last visible character, dropping those (the worst case for the decoder).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SAMPLE_DOCUMENTS } from '../examples/office/data/documents.js';
import { decodeWatermark, embedWatermark, findBoundaries, stripWatermark } from '../src/gates/index.js';

const SHARED = [process.env.TWINLINE_SHARED_DIR, resolve('../shared'), '/work/shared'].find(
  (d): d is string => !!d && existsSync(join(d, 'eval', 'prompt-injection.jsonl')),
);
const KEY = 'bench-watermark-deployment-key';
const TENANTS = ['acme', 'globex', 'initech', 'umbrella'];
/** Fragments per frame (default: the embedder's own choice), for comparing settings on the tuning set. */
const FRAGMENTS = process.env.BENCH_WM_FRAGMENTS ? Number(process.env.BENCH_WM_FRAGMENTS) : undefined;
interface Carrier {
  readonly lang: 'en' | 'zh';
  readonly set: 'tuning' | 'held_out';
  readonly text: string;
}

/** Sentences of a text: up to `.`, `!` or `?` before whitespace, `。！？` (with closing quotes), or a line break. */
function sentencesOf(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let start = 0;
  const push = (end: number) => {
    let a = start;
    let b = end;
    while (a < b && /\s/.test(text[a]!)) a++;
    while (b > a && /\s/.test(text[b - 1]!)) b--;
    if (b - a >= 8) out.push({ start: a, end: b });
    start = end;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') push(i + 1);
    else if ('。！？'.includes(c)) {
      let j = i + 1;
      while (j < text.length && '。！？」』”’）'.includes(text[j]!)) j++;
      push(j);
      i = j - 1;
    } else if ('.!?'.includes(c)) {
      let j = i + 1;
      while (j < text.length && '.!?"\')]’”'.includes(text[j]!)) j++;
      if (j === text.length || /\s/.test(text[j]!)) {
        push(j);
        i = j - 1;
      }
    }
  }
  push(text.length);
  return out;
}

function carriers(): Carrier[] {
  if (!SHARED) {
    return SAMPLE_DOCUMENTS.map((d) => ({ lang: 'en' as const, set: 'held_out' as const, text: d.body }));
  }
  const out: Carrier[] = [];
  for (const line of readFileSync(join(SHARED, 'eval', 'prompt-injection.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { text: string; label: string; lang: string; source: string };
    if (r.label !== 'benign' || r.lang !== 'en') continue;
    out.push({ lang: 'en', set: r.source === 'selfinstruct' ? 'tuning' : 'held_out', text: r.text });
  }
  const seeds = join(SHARED, 'seeds');
  for (const f of readdirSync(seeds)
    .filter((n) => /^\d{3}_.*\.txt$/.test(n))
    .sort()) {
    let all = readFileSync(join(seeds, f), 'utf8');
    // One seed holds its text twice over: take it once.
    const half = all.length >> 1;
    if (all.slice(0, half).trim() === all.slice(half).trim()) all = all.slice(0, half);
    const s = sentencesOf(all);
    for (let i = 0; i + 6 <= s.length; i += 6) {
      out.push({
        lang: 'zh',
        set: f.startsWith('000') ? 'tuning' : 'held_out',
        text: all.slice(s[i]!.start, s[i + 5]!.end),
      });
    }
  }
  return out;
}

/** Offsets of each original character in the marked text (insertions only ever add characters). */
function offsetMap(original: string, marked: string): Int32Array {
  const map = new Int32Array(original.length + 1);
  let j = 0;
  for (let i = 0; i < original.length; i++) {
    while (marked[j] !== original[i]) j++;
    map[i] = j++;
  }
  map[original.length] = marked.length;
  return map;
}

/** The end of the grapheme that ends at `at`: past any invisible characters joined to it. */
function graphemeEnd(marked: string, at: number): number {
  let j = at;
  while (j < marked.length) {
    const cp = marked.codePointAt(j)!;
    if (cp < 0xe0100 || cp > 0xe01ef) break;
    j += 2;
  }
  return j;
}

type Tally = Record<string, { excerpts: number; decoded: number }>;
const tally: Record<string, Tally> = {};
const bump = (group: string, key: string, ok: boolean) => {
  const g = tally[group] ?? {};
  tally[group] = g;
  const t = g[key] ?? { excerpts: 0, decoded: 0 };
  g[key] = t;
  t.excerpts++;
  if (ok) t.decoded++;
};

let texts = 0;
let unmarked = 0;
let originalBytes = 0;
let addedBytes = 0;
let sentenceCount = 0;
let stripMismatch = 0;
let wrongDecodes = 0;
let foreignDecodes = 0;
let embedMs = 0;
let decodeMs = 0;
let decodes = 0;
let n = 0;
for (const c of carriers()) {
  const s = sentencesOf(c.text);
  if (s.length < 1) continue;
  texts++;
  const wm = {
    tenant: TENANTS[n % TENANTS.length]!,
    user: `user${n % 17}`,
    session: `0f8fad5b-d9cb-469f-a165-${String(n).padStart(12, '0')}`,
    channel: n % 3 === 0 ? 'api' : 'sse',
  };
  n++;
  let t = performance.now();
  const marked = embedWatermark(c.text, wm, { key: KEY, ...(FRAGMENTS ? { fragments: FRAGMENTS } : {}) });
  embedMs += performance.now() - t;
  if (marked === c.text) {
    // JSON, code, or a single token: no mark in the text (the API carries the token beside it).
    unmarked++;
    continue;
  }
  if (stripWatermark(marked) !== c.text) stripMismatch++;
  originalBytes += Buffer.byteLength(c.text);
  addedBytes += Buffer.byteLength(marked) - Buffer.byteLength(c.text);
  sentenceCount += s.length;
  const map = offsetMap(c.text, marked);
  const sites = findBoundaries(c.text).positions;
  for (const k of [1, 2, 4]) {
    for (let i = 0; i + k <= s.length; i++) {
      const from = map[s[i]!.start]!;
      const visibleEnd = map[s[i + k - 1]!.end - 1]! + 1;
      for (const [cut, to] of [
        ['grapheme', graphemeEnd(marked, visibleEnd)],
        ['visible', visibleEnd],
      ] as const) {
        t = performance.now();
        const got = decodeWatermark(marked.slice(from, to), { key: KEY, tenants: TENANTS });
        decodeMs += performance.now() - t;
        decodes++;
        const right =
          got?.tenant === wm.tenant &&
          got.user === wm.user &&
          got.session === wm.session &&
          got.channel === wm.channel;
        if (got && !right) wrongDecodes++;
        // An excerpt of code, CSV or other text with no place a mark may go cannot carry one.
        const markable = sites.some((p) => p > s[i]!.start && p <= s[i + k - 1]!.end);
        const name = `${cut}.${k}_sentence${k > 1 ? 's' : ''}`;
        for (const g of [`${c.set}.${c.lang}`, c.set, 'all']) {
          bump(g, name, right);
          if (markable) bump(`${g}.markable`, name, right);
        }
      }
    }
  }
  // Without the key, or with only other tenants' keys, nothing decodes.
  if (decodeWatermark(marked, { key: 'not-the-key', tenants: TENANTS })) foreignDecodes++;
  if (decodeWatermark(marked, { key: KEY, tenants: TENANTS.filter((x) => x !== wm.tenant) }))
    foreignDecodes++;
}

const rate = (t: Tally) =>
  Object.fromEntries(
    Object.entries(t)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => [
        k,
        { rate: Math.round((v.decoded / v.excerpts) * 10_000) / 10_000, excerpts: v.excerpts },
      ]),
  );

const result = {
  data: SHARED ? `shared eval data at ${SHARED}` : 'office sample documents (shared eval data not found)',
  texts,
  texts_left_unmarked: unmarked,
  sentences: sentenceCount,
  decode_rate: Object.fromEntries(Object.entries(tally).map(([g, t]) => [g, rate(t)])),
  wrong_decodes: wrongDecodes,
  decodes_without_the_tenant_key: foreignDecodes,
  strip_restores_original: stripMismatch === 0,
  size: {
    utf8_bytes_added_per_sentence: Math.round(addedBytes / Math.max(1, sentenceCount)),
    utf8_growth_percent: Math.round((addedBytes / Math.max(1, originalBytes)) * 1000) / 10,
  },
  time: {
    embed_us_per_text: Math.round((embedMs / Math.max(1, texts)) * 1000),
    decode_us_per_excerpt: Math.round((decodeMs / Math.max(1, decodes)) * 1000),
  },
};
process.stdout.write(`${JSON.stringify(result)}\n`);
