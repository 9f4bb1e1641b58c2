import type { LineScores, RouteClass, RouteTarget, RuleHit } from './types.js';

/** Cap on the total log-likelihood ratio rules may add to one class. */
export const MAX_RULE_BOOST = 4;

/**
 * Combines classifier probabilities with rule hits. Each class's rule weights are summed (capped)
 * and added to its log-probability, then renormalised: a rule is evidence, not a verdict. An
 * undecided classifier is lifted over the threshold by a firm rule; a classifier confidently
 * saying the other line keeps its answer; in between, neither line reaches the threshold and the
 * request goes to the read-only line — a conflict never runs a tool. (docs/router.md)
 */
export function combineScores(
  probs: { deep: number; quick: number; readonly_fallback: number },
  hits: readonly RuleHit[],
): { deep: number; quick: number; readonly_fallback: number } {
  const boost: Record<RouteClass, number> = { deep: 0, quick: 0, readonly_fallback: 0 };
  for (const h of hits) boost[h.lean] += h.weight;
  const d = probs.deep * Math.exp(Math.min(boost.deep, MAX_RULE_BOOST));
  const q = probs.quick * Math.exp(Math.min(boost.quick, MAX_RULE_BOOST));
  const r = probs.readonly_fallback * Math.exp(Math.min(boost.readonly_fallback, MAX_RULE_BOOST));
  const sum = d + q + r;
  return { deep: d / sum, quick: q / sum, readonly_fallback: r / sum };
}

/** The threshold rule (docs/router.md, "How a decision is made"): a tool line only when its confidence reaches the threshold. */
export function pickTarget(scores: LineScores, threshold: number): RouteTarget {
  const best: RouteTarget = scores.deep >= scores.quick ? 'deep' : 'quick';
  return scores[best] >= threshold ? best : 'readonly_fallback';
}
