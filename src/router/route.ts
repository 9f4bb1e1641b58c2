import { classifyNormalized, type RouterModel } from './classifier.js';
import { combineScores, pickTarget } from './decide.js';
import { RouterModelError } from './errors.js';
import { shippedRouterModel } from './model-file.js';
import { normalizeRequest } from './normalize.js';
import { matchRules } from './rules.js';
import { DEFAULT_ROUTE_THRESHOLD, type RouteDecision, type RouteOptions } from './types.js';

/** Requests longer than this are cut before feature extraction: routing needs the gist, not the whole text. */
const MAX_ROUTED_CHARS = 2000;

/**
 * Decides which line serves a request: rules, then the embedded classifier, combined in
 * `combineScores`; below the threshold for both lines → `readonly_fallback`.
 */
export function route(query: string, options?: RouteOptions & { model?: RouterModel }): RouteDecision {
  const threshold = options?.threshold ?? DEFAULT_ROUTE_THRESHOLD;
  if (!(threshold > 0 && threshold <= 1)) {
    throw new RouterModelError('router_threshold', `threshold must be in (0, 1], got ${threshold}`, {
      where: 'route options',
    });
  }
  const normalized = normalizeRequest(
    query.length > MAX_ROUTED_CHARS ? query.slice(0, MAX_ROUTED_CHARS) : query,
  );
  if (!/[\p{L}\p{N}]/u.test(normalized)) {
    // nothing to read: empty, whitespace, punctuation or emoji only
    const decision: RouteDecision = {
      target: 'readonly_fallback',
      scores: { deep: 0, quick: 0 },
      rule: 'readonly.empty',
    };
    if (options?.explain) {
      decision.features = {
        classifier: { deep: 0, quick: 0, readonly_fallback: 1 },
        rules: [{ id: 'readonly.empty', lean: 'readonly_fallback', weight: Number.POSITIVE_INFINITY }],
        ruleOverridden: false,
        threshold,
      };
    }
    return decision;
  }
  const model = options?.model ?? shippedRouterModel();
  const p = classifyNormalized(model, normalized);
  const classifier = { deep: p[0]!, quick: p[1]!, readonly_fallback: p[2]! };
  const hits = matchRules(normalized);
  const combined = combineScores(classifier, hits);
  const scores = { deep: combined.deep, quick: combined.quick };
  const target = pickTarget(scores, threshold);
  const top = hits[0];
  const decision: RouteDecision = { target, scores, rule: top ? top.id : null };
  if (options?.explain) {
    decision.features = {
      classifier,
      rules: hits,
      ruleOverridden: top !== undefined && top.lean !== target,
      threshold,
    };
  }
  return decision;
}
