import { hashFeatures, type RequestContext, type SparseVector } from './features.js';
import { normalizeRequest } from './normalize.js';
import type { ROUTE_CLASSES } from './types.js';

/**
 * A multinomial logistic regression over hashed features. `weights` is bucket-major
 * (`weights[bucket * classes + k]`) so one feature touches adjacent memory. Logits are divided
 * by `temperature` (fitted on a calibration split) before the softmax so that a score of 0.82
 * means roughly "right 82% of the time".
 */
export interface RouterModel {
  version: 1;
  dim: number;
  classes: readonly string[];
  temperature: number;
  bias: Float32Array;
  weights: Float32Array;
}

/** Raw logits (before temperature) of one feature vector. */
export function modelLogits(model: RouterModel, vec: SparseVector): Float64Array {
  const k = model.classes.length;
  const z = new Float64Array(k);
  for (let c = 0; c < k; c++) z[c] = model.bias[c]!;
  const { index, value } = vec;
  const w = model.weights;
  for (let i = 0; i < index.length; i++) {
    const base = index[i]! * k;
    const v = value[i]!;
    for (let c = 0; c < k; c++) z[c]! += w[base + c]! * v;
  }
  return z;
}

/** Softmax of `logits / temperature`, in place-safe (returns a new array). */
export function softmax(logits: ArrayLike<number>, temperature = 1): Float64Array {
  const n = logits.length;
  const out = new Float64Array(n);
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) max = Math.max(max, logits[i]! / temperature);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    out[i] = Math.exp(logits[i]! / temperature - max);
    sum += out[i]!;
  }
  for (let i = 0; i < n; i++) out[i]! /= sum;
  return out;
}

/** Calibrated class probabilities in ROUTE_CLASSES order for an already normalised request. */
export function classifyNormalized(
  model: RouterModel,
  normalized: string,
  context?: RequestContext,
): Float64Array {
  return softmax(modelLogits(model, hashFeatures(normalized, model.dim, context)), model.temperature);
}

/** Calibrated class probabilities for a raw request. */
export function classify(model: RouterModel, text: string): Record<(typeof ROUTE_CLASSES)[number], number> {
  const p = classifyNormalized(model, normalizeRequest(text));
  return { deep: p[0]!, quick: p[1]!, readonly_fallback: p[2]! };
}
