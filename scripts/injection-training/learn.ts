/**
 * Logistic regression over window vectors, one model per channel, trained with AdaGrad and L2.
 * A text is as injected as its worst window (multiple-instance learning): a benign text makes
 * every window a negative; an injected text makes, after a first epoch over all its windows
 * (each weighted 1/k), only its currently highest-scoring window a positive — so the benign
 * paragraphs around an injected one are not taught to look like attacks.
 *
 * Feature-group dropout: in a quarter of the steps the n-grams are hidden, in a sixth the named
 * features (recognisers, cues). A logistic regression otherwise leaves a feature that only
 * fires on already-recognised attacks near zero, and then cannot lean on it when a new wording
 * leaves the n-grams unfamiliar.
 */
import { FEATURE_DIM } from '../../src/gates/input/learned/occurrences.js';
import type { Example, WindowVector } from './vectorize.js';

export interface LearnOptions {
  epochs: number;
  lr: number;
  l2: number;
  seed: number;
  /** per-example weight multiplier (e.g. to balance sources); default 1 */
  weightOf?: (e: Example) => number;
}

export const DEFAULT_LEARN: LearnOptions = { epochs: 12, lr: 0.2, l2: 1e-6, seed: 5 };

export interface Trained {
  bias: number;
  weights: Float32Array | Int8Array;
  /** weights are `weights[i] × scale`; 1 for a model being trained */
  scale?: number;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function dot(m: Trained, v: WindowVector): number {
  let z = 0;
  for (let i = 0; i < v.index.length; i++) z += m.weights[v.index[i]!]! * v.value[i]!;
  return m.bias + (m.scale ?? 1) * z;
}

/** The highest window logit of an example. */
export function exampleLogit(m: Trained, e: Example): number {
  let best = Number.NEGATIVE_INFINITY;
  for (const w of e.windows) best = Math.max(best, dot(m, w));
  return best;
}

export function learn(examples: readonly Example[], opts: LearnOptions = DEFAULT_LEARN): Trained {
  const rand = mulberry32(opts.seed);
  const weights = new Float32Array(FEATURE_DIM);
  const m: Trained = { bias: 0, weights };
  const g2 = new Float32Array(FEATURE_DIM).fill(1e-8);
  let biasG2 = 1e-8;
  // balance the two labels
  const pos = examples.filter((e) => e.y === 1).length;
  const neg = examples.length - pos;
  const classWeight = [examples.length / (2 * Math.max(1, neg)), examples.length / (2 * Math.max(1, pos))];
  const order = examples.map((_, i) => i);
  const step = (v: WindowVector, y: number, weight: number) => {
    const r = rand();
    const from = r < 0.25 && v.ngrams < v.index.length ? v.ngrams : 0;
    const to = r >= 0.25 && r < 0.42 && v.ngrams > 0 ? v.ngrams : v.index.length;
    let z = m.bias;
    for (let i = from; i < to; i++) z += m.weights[v.index[i]!]! * v.value[i]!;
    const p = 1 / (1 + Math.exp(-z));
    const g = (p - y) * weight;
    for (let i = from; i < to; i++) {
      const j = v.index[i]!;
      const gi = g * v.value[i]! + opts.l2 * weights[j]!;
      g2[j]! += gi * gi;
      weights[j]! -= (opts.lr * gi) / Math.sqrt(g2[j]!);
    }
    biasG2 += g * g;
    m.bias -= (opts.lr * g) / Math.sqrt(biasG2);
  };
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const idx of order) {
      const e = examples[idx]!;
      const w = classWeight[e.y]! * (opts.weightOf?.(e) ?? 1);
      if (e.y === 0 || e.windows.length === 1) {
        for (const v of e.windows) step(v, e.y, w);
      } else if (epoch === 0) {
        for (const v of e.windows) step(v, 1, w / e.windows.length);
      } else {
        let best = e.windows[0]!;
        let bz = dot(m, best);
        for (let k = 1; k < e.windows.length; k++) {
          const z = dot(m, e.windows[k]!);
          if (z > bz) [best, bz] = [e.windows[k]!, z];
        }
        step(best, 1, w);
      }
    }
  }
  return m;
}
