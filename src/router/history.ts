import type { RouteClass, RouteTarget, RuleHit } from './types.js';

/** How many recent routes count, and how much log-odds a line gains at most from them. */
const WINDOW = 10;
const MAX_BOOST = 0.6;

/**
 * The user's recent routes as a prior (the seed's "historical behaviour" family): each line's
 * share of the last routes, smoothed (add-one over the three lines), becomes a log-odds boost
 * of at most MAX_BOOST relative to an even history. Small on purpose: e^0.6 ≈ 1.8, enough to
 * tip a request sitting near the threshold toward the line this user keeps using, never enough
 * to send a clear request elsewhere. Returned as rule-like hits for `combineScores`; empty
 * without history.
 */
export function historyPrior(recent: readonly RouteTarget[] | undefined): RuleHit[] {
  if (!recent || recent.length === 0) return [];
  const last = recent.slice(-WINDOW);
  const classes: RouteClass[] = ['deep', 'quick', 'readonly_fallback'];
  const share = (c: RouteClass) => (last.filter((t) => t === c).length + 1) / (last.length + 3);
  const even = 1 / 3;
  return classes
    .map((c) => ({
      id: `history.${c}`,
      lean: c,
      weight: Math.min(MAX_BOOST, Math.max(0, Math.log(share(c) / even) * (MAX_BOOST / Math.log(3)))),
    }))
    .filter((h) => h.weight > 0);
}
