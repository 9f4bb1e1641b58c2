import { modelLogits, type RouterModel, softmax } from './classifier.js';
import { hashFeatures, type SparseVector } from './features.js';
import { normalizeRequest } from './normalize.js';
import { ROUTE_CLASSES, type RouteClass } from './types.js';

/** One labelled request. */
export interface LabelledRequest {
  query: string;
  label: RouteClass;
}

export interface TrainOptions {
  dim?: number;
  epochs?: number;
  seed?: number;
  /**
   * Share of steps in which half of the request's features are hidden (default 0.5). A request
   * in words the training set never used shows the model only part of what it knows; training
   * on such partial views teaches it that part of the evidence still points to a line, instead
   * of leaving an unfamiliar request to the class the bias favours.
   */
  dropout?: number;
}

interface Encoded {
  vec: SparseVector;
  y: number;
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

/** Seeded Fisher–Yates shuffle in place. */
export function shuffleSeeded<T>(xs: T[], rand: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

export const seededRandom = mulberry32;

const encode = (r: LabelledRequest, dim: number): Encoded => ({
  vec: hashFeatures(normalizeRequest(r.query), dim),
  y: ROUTE_CLASSES.indexOf(r.label),
});

/**
 * Trains the router's softmax regression (AdaGrad, L2, inverse-frequency class weights) on
 * labelled requests, with the same features `route()` reads. Temperature 1: fit it on requests
 * the model did not see with `fitTemperature`.
 */
export function trainRouterModel(rows: readonly LabelledRequest[], options: TrainOptions = {}): RouterModel {
  const dim = options.dim ?? 16384;
  const epochs = options.epochs ?? 40;
  const rand = mulberry32(options.seed ?? 13);
  const K = ROUTE_CLASSES.length;
  const data = rows.map((r) => encode(r, dim));
  const weights = new Float32Array(dim * K);
  const bias = new Float32Array(K);
  const g2w = new Float32Array(dim * K);
  const g2b = new Float32Array(K);
  const lr = 0.4;
  const l2 = 1e-4;
  const counts = new Array(K).fill(0);
  for (const d of data) counts[d.y]++;
  const classWeight = counts.map((c) => data.length / (K * Math.max(1, c)));
  const order = data.map((_, i) => i);
  const model: RouterModel = { version: 1, dim, classes: ROUTE_CLASSES, temperature: 1, bias, weights };
  const dropout = options.dropout ?? 0.5;
  const partial = (v: SparseVector): SparseVector => {
    const keep: number[] = [];
    for (let j = 0; j < v.index.length; j++) if (rand() < 0.5) keep.push(j);
    if (keep.length === 0) return v;
    return {
      index: Int32Array.from(keep, (j) => v.index[j]!),
      value: Float32Array.from(keep, (j) => v.value[j]!),
    };
  };
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffleSeeded(order, rand);
    for (const i of order) {
      const { y } = data[i]!;
      const vec = rand() < dropout ? partial(data[i]!.vec) : data[i]!.vec;
      const p = softmax(modelLogits(model, vec));
      const cw = classWeight[y]!;
      for (let c = 0; c < K; c++) {
        const g = cw * (p[c]! - (c === y ? 1 : 0));
        g2b[c]! += g * g;
        bias[c]! -= (lr * g) / (Math.sqrt(g2b[c]!) + 1e-8);
        for (let j = 0; j < vec.index.length; j++) {
          const w = vec.index[j]! * K + c;
          const gw = g * vec.value[j]! + l2 * weights[w]!;
          g2w[w]! += gw * gw;
          weights[w]! -= (lr * gw) / (Math.sqrt(g2w[w]!) + 1e-8);
        }
      }
    }
  }
  return model;
}

/** Mean negative log-likelihood of labelled requests at a temperature. */
export function meanNll(model: RouterModel, rows: readonly LabelledRequest[], temperature: number): number {
  let s = 0;
  for (const r of rows) {
    const e = encode(r, model.dim);
    s -= Math.log(Math.max(1e-12, softmax(modelLogits(model, e.vec), temperature)[e.y]!));
  }
  return s / Math.max(1, rows.length);
}

/** The temperature (0.2–5, step 0.05) that minimises NLL on requests the model did not see. */
export function fitTemperature(model: RouterModel, calibration: readonly LabelledRequest[]): number {
  let best = 1;
  let bestLoss = Number.POSITIVE_INFINITY;
  for (let t = 0.2; t <= 5.0001; t += 0.05) {
    const loss = meanNll(model, calibration, t);
    if (loss < bestLoss) {
      bestLoss = loss;
      best = Math.round(t * 100) / 100;
    }
  }
  return best;
}
