/**
 * Scores a text with the learned injection model: every window's logit is
 * `bias + Σ w[occurrence] / √n + Σ w[named feature]`, and the text takes its highest window.
 * The occurrence part of every window comes from one prefix-sum pass, so a 4 KB text costs one
 * walk over its n-grams whatever the overlap of the windows.
 */
import type { Channel } from '../combine.js';
import type { InjectionModel } from './model.js';
import { pastedSegments, pastedWindows } from './pasted.js';
import {
  type RecogniserHitLike,
  type TextFeatures,
  textFeatures,
  type WindowSet,
  windowingOf,
  windowNamed,
} from './windows.js';

export interface LearnedScore {
  /** Calibrated probability of injection for the worst window. */
  readonly probability: number;
  readonly logit: number;
  /** The worst window, in normalised units. */
  readonly start: number;
  readonly end: number;
  /** Named features (recognisers, cues) of that window by contribution, strongest first. */
  readonly evidence: ReadonlyArray<{ readonly name: string; readonly weight: number }>;
}

let prefix = new Float64Array(8192);
const namedScratch: number[] = [];

/**
 * Window logits of already-extracted features; with `among = 'fixed'`, only the fixed windows
 * are scored (the others get -Infinity), each with its position among them; with `only`, only
 * the windows it marks 1.
 */
export function windowLogits(
  model: InjectionModel,
  channel: Channel,
  f: TextFeatures,
  among: WindowSet = 'all',
  only?: Uint8Array,
): Float64Array {
  const { bias, weights, scale } = model.channels[channel];
  const { occ } = f;
  if (prefix.length < occ.n + 1) prefix = new Float64Array((occ.n + 1) * 2);
  prefix[0] = 0;
  for (let i = 0; i < occ.n; i++) prefix[i + 1] = prefix[i]! + weights[occ.bucket[i]!]!;
  const out = new Float64Array(f.windows.length);
  for (let w = 0; w < f.windows.length; w++) {
    const { lo, hi, fixed } = f.windows[w]!;
    if ((among === 'fixed' && fixed < 0) || (only !== undefined && only[w] !== 1)) {
      out[w] = Number.NEGATIVE_INFINITY;
      continue;
    }
    let z = hi > lo ? (prefix[hi]! - prefix[lo]!) / Math.sqrt(hi - lo) : 0;
    for (const b of windowNamed(f, w, namedScratch, among)) z += weights[b]!;
    // one scale per channel: applied to the sum, not to every weight
    out[w] = bias + scale * z;
  }
  return out;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Scores normalised text given the recognisers' hits on it. */
export function learnedScore(
  model: InjectionModel,
  channel: Channel,
  normalized: string,
  hits: readonly RecogniserHitLike[],
  folded?: string | null,
): LearnedScore {
  const f = textFeatures(normalized, hits, folded, windowingOf(channel));
  return worstWindow(model, channel, f, windowLogits(model, channel, f))!;
}

/**
 * A user's request scored as the user-input model reads it, and — when it carries a pasted part
 * (pasted.ts) — that part's windows scored by the tool-output model, from one extraction of
 * features: the request is cut into fixed and sentence windows once, the user-input model reads
 * the fixed ones and the tool-output model the ones in the pasted part.
 */
export function learnedUserScore(
  model: InjectionModel,
  normalized: string,
  hits: readonly RecogniserHitLike[],
  folded?: string | null,
): { user: LearnedScore; pasted?: LearnedScore } {
  const parts = pastedSegments(normalized);
  if (parts.length === 0) return { user: learnedScore(model, 'user_input', normalized, hits, folded) };
  const f = textFeatures(normalized, hits, folded, 'units');
  const user = worstWindow(model, 'user_input', f, windowLogits(model, 'user_input', f, 'fixed'))!;
  const pasted = worstWindow(
    model,
    'tool_output',
    f,
    windowLogits(model, 'tool_output', f, 'all', pastedWindows(f, parts)),
  );
  return pasted ? { user, pasted } : { user };
}

/** The window with the highest logit as a score, or undefined when every logit is -Infinity. */
function worstWindow(
  model: InjectionModel,
  channel: Channel,
  f: TextFeatures,
  logits: Float64Array,
): LearnedScore | undefined {
  let best = 0;
  for (let w = 1; w < logits.length; w++) if (logits[w]! > logits[best]!) best = w;
  if (logits[best] === Number.NEGATIVE_INFINITY) return undefined;
  const win = f.windows[best]!;
  const { weights, scale } = model.channels[channel];
  const seen = new Set<string>();
  const evidence: Array<{ name: string; weight: number }> = [];
  for (const h of f.named) {
    if (h.start >= win.end || h.end <= win.start || seen.has(h.name)) continue;
    seen.add(h.name);
    const weight = weights[h.bucket]! * scale;
    if (weight > 0) evidence.push({ name: h.name, weight: Math.round(weight * 100) / 100 });
  }
  evidence.sort((a, b) => b.weight - a.weight);
  const logit = logits[best]!;
  return {
    probability: sigmoid(logit),
    logit,
    start: win.start,
    end: win.end,
    evidence: evidence.slice(0, 5),
  };
}
