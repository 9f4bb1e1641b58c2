import { type Channel, combineEvidence, type TypeEvidence } from './combine.js';
import { floorHit } from './learned/floors.js';
import { shippedInjectionModel } from './learned/model.js';
import { foldLeetspeak } from './learned/occurrences.js';
import { type LearnedScore, learnedScore, learnedUserScore } from './learned/score.js';
import { type NormalizedText, normalizeText, toOriginalRange } from './normalize.js';
import { decodeBase64Payloads } from './payloads.js';
import { prebuiltKeywordIndex } from './prebuilt-keyword-index.js';
import { RECOGNISER_KEYWORDS } from './recogniser-keywords.generated.js';
import { RecogniserPrefilter } from './recogniser-prefilter.js';
import { type InjectionType, RECOGNISERS, type Recogniser } from './recognisers.js';
import { DEFAULT_THRESHOLDS, type ScanVerdict, type Thresholds, verdictFor } from './verdict.js';

/** One piece of evidence, pointing at the ORIGINAL text. */
export interface Finding {
  readonly type: string;
  readonly start: number;
  readonly end: number;
  readonly score: number;
  readonly reason: string;
  /** Stable recogniser id, e.g. `override.zh.ignore`. */
  readonly rule: string;
}

export interface ScanResult {
  readonly verdict: ScanVerdict;
  readonly score: number;
  readonly findings: readonly Finding[];
}

export interface ScanOptions {
  /** Where the text came from. Defaults to `user_input`. */
  readonly channel?: Channel;
  readonly thresholds?: Partial<Record<Channel, Thresholds>>;
  /**
   * `learned` (default): the trained per-channel scorer, which takes the recognisers' hits as
   * features (docs/gates.md "Learned scorer"). `recognisers`: the hand-set combination of the
   * recognisers alone (the scorer before the learned one; kept for comparison and as a floor).
   */
  readonly scorer?: 'learned' | 'recognisers';
}

/** At most this many hits per recogniser are reported (the score uses only presence). */
const MAX_HITS_PER_RULE = 4;

export interface Hit {
  readonly rule: string;
  readonly type: InjectionType;
  readonly weight: number;
  readonly reason: string;
  readonly start: number;
  readonly end: number;
}

function runOne(rec: Recogniser, text: string, hits: Hit[], offset = 0): void {
  rec.pattern.lastIndex = 0;
  let n = 0;
  for (let m = rec.pattern.exec(text); m !== null; m = rec.pattern.exec(text)) {
    if (m[0].length === 0) {
      rec.pattern.lastIndex++;
      continue;
    }
    // Leading separators captured by an anchor alternative are not part of the evidence.
    const lead = m[0].length - m[0].trimStart().length;
    hits.push({
      rule: rec.id,
      type: rec.type,
      weight: rec.weight,
      reason: rec.reason,
      start: offset + m.index + lead,
      end: offset + m.index + m[0].length,
    });
    if (++n >= MAX_HITS_PER_RULE) break;
  }
}

/** Supporting signals are looked for this far around a primary hit (long texts only). */
const SUPPORT_WINDOW = 1500;

/** Merged [start, end) windows around the hits. */
function windowsAround(hits: readonly Hit[], length: number): Array<[number, number]> {
  const ws = hits.map((h): [number, number] => [
    Math.max(0, h.start - SUPPORT_WINDOW),
    Math.min(length, h.end + SUPPORT_WINDOW),
  ]);
  ws.sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const w of ws) {
    const last = out[out.length - 1];
    if (last && w[0] <= last[1]) last[1] = Math.max(last[1], w[1]);
    else out.push(w);
  }
  return out;
}

const PRIMARY = RECOGNISERS.filter((r) => r.requires === undefined);
const SUPPORTING_RECOGNISERS = RECOGNISERS.filter((r) => r.requires !== undefined);
/** Primary recognisers first, then supporting ones: indexes into `mayMatch`. */
let prefilter: RecogniserPrefilter | undefined;
const mayMatch = new Uint8Array(PRIMARY.length + SUPPORTING_RECOGNISERS.length);

/**
 * The injection recognisers' keyword pre-filter. Built on first use, so importing the gate (e.g.
 * by a CLI command that never scans) stays cheap; the bundled CLI reads the index `npm run build`
 * wrote instead of building it.
 */
export function injectionPrefilter(): RecogniserPrefilter {
  prefilter ??= new RecogniserPrefilter(
    [...PRIMARY, ...SUPPORTING_RECOGNISERS],
    RECOGNISER_KEYWORDS,
    prebuiltKeywordIndex,
  );
  return prefilter;
}

/**
 * The recognisers' hits on normalised text, in its coordinates, also on its leetspeak-folded
 * view (`1gn0r3 4ll pr3v10u5 …`; folding keeps offsets). Findings and the learned scorer's
 * features both come from here, and so does scripts/train-injection.ts: training sees what
 * scanning sees.
 */
export function recogniserHits(text: string, folded: string | null = foldLeetspeak(text) ?? null): Hit[] {
  const hits = runRecognisers(text);
  if (folded === null) return hits;
  const seen = new Set(hits.map((h) => h.rule));
  for (const h of runRecognisers(folded))
    if (!seen.has(h.rule)) hits.push({ ...h, reason: `${h.reason} (leetspeak)` });
  return hits;
}

/**
 * The learned scorer's named inputs: the recognisers' hits (computed here unless given) plus the
 * obfuscation marker.
 */
export function learnedInputs(norm: NormalizedText, hits: readonly Hit[] = recogniserHits(norm.text)): Hit[] {
  return norm.obfuscated && norm.text.length > 0 ? [...hits, obfuscationMarker(norm.text.length)] : [...hits];
}

function runRecognisers(text: string): Hit[] {
  const hits: Hit[] = [];
  // Recognisers whose required keywords are absent cannot match: skipping them changes nothing.
  injectionPrefilter().select(text, mayMatch);
  for (let i = 0; i < PRIMARY.length; i++) if (mayMatch[i] === 1) runOne(PRIMARY[i]!, text, hits);
  if (hits.length === 0) return hits;
  const present = new Set(hits.map((h) => h.type));
  const supporting = SUPPORTING_RECOGNISERS.filter(
    (rec, i) => mayMatch[PRIMARY.length + i] === 1 && rec.requires!.some((t) => present.has(t)),
  );
  if (supporting.length === 0) return hits;
  const windows =
    text.length <= 2 * SUPPORT_WINDOW
      ? [[0, text.length] as [number, number]]
      : windowsAround(hits, text.length);
  for (const [a, b] of windows) {
    const slice = a === 0 && b === text.length ? text : text.slice(a, b);
    for (const rec of supporting) runOne(rec, slice, hits, a);
  }
  return hits;
}

function evidenceOf(hits: readonly Hit[]): Map<InjectionType, TypeEvidence> {
  const byType = new Map<InjectionType, { max: number; rules: Set<string> }>();
  for (const h of hits) {
    const e = byType.get(h.type) ?? { max: 0, rules: new Set<string>() };
    e.max = Math.max(e.max, h.weight);
    e.rules.add(h.rule);
    byType.set(h.type, e);
  }
  const out = new Map<InjectionType, TypeEvidence>();
  for (const [t, e] of byType) out.set(t, { max: e.max, distinct: e.rules.size });
  return out;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Normalisation undid an obfuscation somewhere in the text: a feature of every window. */
const obfuscationMarker = (length: number): Hit => ({
  rule: 'normalized.obfuscated',
  type: 'encoded_payload',
  weight: 0,
  reason: '',
  start: 0,
  end: length,
});

/**
 * Scans `text` for prompt injection. Pure: no I/O, deterministic. Findings carry offsets into
 * `text` as given (before normalisation); base64 payloads are decoded and scanned, their
 * findings pointing at the encoded run.
 */
export function scanText(text: string, options: ScanOptions = {}): ScanResult {
  const channel = options.channel ?? 'user_input';
  const norm = normalizeText(text);
  // the recognisers-only scorer is the one before the learned scorer, exactly (no leetspeak view)
  // null: folded and found nothing to fold — every reader below takes that as given instead of
  // folding again (an explicit undefined would re-run each reader's default)
  const folded = options.scorer === 'recognisers' ? null : (foldLeetspeak(norm.text) ?? null);
  const hits =
    options.scorer === 'recognisers' ? runRecognisers(norm.text) : recogniserHits(norm.text, folded);
  const findings: Finding[] = [];
  for (const h of hits) {
    const range = toOriginalRange(norm, h.start, h.end);
    findings.push({
      type: h.type,
      ...range,
      score: round(1 - Math.exp(-h.weight / 2)),
      reason: h.reason,
      rule: h.rule,
    });
  }
  const all: Hit[] = [...hits];
  const payloads = decodeBase64Payloads(text);
  for (const payload of payloads) {
    const inner = runRecognisers(normalizeText(payload.decoded).text);
    if (inner.length === 0) continue;
    const carrier: Hit = {
      rule: 'payload.base64',
      type: 'encoded_payload',
      weight: 0.5,
      reason: 'base64 payload carries instructions',
      start: payload.start,
      end: payload.end,
    };
    all.push(carrier, ...inner);
    findings.push({
      type: carrier.type,
      start: payload.start,
      end: payload.end,
      score: 0.5,
      reason: carrier.reason,
      rule: carrier.rule,
    });
    for (const h of inner) {
      findings.push({
        type: h.type,
        start: payload.start,
        end: payload.end,
        score: round(1 - Math.exp(-h.weight / 2)),
        reason: `${h.reason} (inside base64)`,
        rule: h.rule,
      });
    }
  }
  const evidence = evidenceOf(all);
  if (norm.obfuscated && evidence.size > 0) {
    evidence.set('encoded_payload', {
      max: Math.max(evidence.get('encoded_payload')?.max ?? 0, 0.4),
      distinct: 1,
    });
  }
  const thresholds = options.thresholds?.[channel] ?? DEFAULT_THRESHOLDS[channel];
  let score: number;
  if (options.scorer === 'recognisers') {
    score = evidence.size === 0 ? 0 : round(combineEvidence(evidence, channel));
  } else if (!/[\p{L}\p{N}]/u.test(norm.text)) {
    // nothing to read (empty, spaces, punctuation): nothing to score
    score = 0;
  } else {
    const model = shippedInjectionModel();
    const inputs = learnedInputs(norm, hits);
    const scored =
      channel === 'user_input'
        ? learnedUserScore(model, norm.text, inputs, folded)
        : { user: learnedScore(model, channel, norm.text, inputs, folded) };
    let best: LearnedScore = scored.user;
    let bestRange = toOriginalRange(norm, best.start, best.end);
    for (const payload of payloads) {
      const inner = normalizeText(payload.decoded);
      const s = learnedScore(model, channel, inner.text, learnedInputs(inner));
      if (s.logit > best.logit) {
        best = s;
        bestRange = { start: payload.start, end: payload.end };
      }
    }
    score = round(best.probability);
    const floor = floorHit(hits, norm.text);
    if (floor && score < thresholds.review) score = thresholds.review;
    // text pasted into a request is data: an order planted in it is read as a document's would be
    // (learned/pasted.ts); it sends the request to review, never past it
    const pasted = scored.pasted;
    const toolReview = options.thresholds?.tool_output?.review ?? DEFAULT_THRESHOLDS.tool_output.review;
    if (score < thresholds.review && pasted && pasted.probability >= toolReview) {
      score = thresholds.review;
      findings.push({
        type: 'learned_classifier',
        ...toOriginalRange(norm, pasted.start, pasted.end),
        score: round(pasted.probability),
        reason: `pasted text read as a document by the learned tool_output scorer${pasted.evidence.length ? `: ${pasted.evidence.map((e) => e.name).join(', ')}` : ''}`,
        rule: 'learned.pasted',
      });
    } else if (verdictFor(score, thresholds) !== 'pass') {
      findings.push({
        type: 'learned_classifier',
        ...bestRange,
        score,
        reason: `learned ${channel} scorer${best.evidence.length ? `: ${best.evidence.map((e) => e.name).join(', ')}` : ''}`,
        rule: `learned.${channel}`,
      });
    }
  }
  findings.sort((a, b) => a.start - b.start || b.score - a.score);
  return { verdict: verdictFor(score, thresholds), score, findings };
}
