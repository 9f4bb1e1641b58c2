import { classifyNormalized, type RouterModel } from './classifier.js';
import { combineScores, pickTarget } from './decide.js';
import { RouterModelError } from './errors.js';
import { shippedRouterModel } from './model-file.js';
import { normalizeRequest } from './normalize.js';
import { matchRules, ROUTE_RULES as ROUTE_RULES_DEFAULT, type RouteRule } from './rules.js';
import { DEFAULT_ROUTE_THRESHOLD, type RouteDecision, type RouteOptions } from './types.js';

/** Requests longer than this are cut before feature extraction: routing needs the gist, not the whole text. */
const MAX_ROUTED_CHARS = 2000;

/** With no classifier every class starts even, and the rules alone move a request (docs/router.md). */
const EVEN = Float64Array.from([1 / 3, 1 / 3, 1 / 3]);

/** What a route is decided with, beyond the threshold: by default the office domain's model and rules. */
export interface RouteSetup {
  /** The classifier; `null` routes by the rules alone (the decision says `routing: 'rules-only'`). */
  readonly model?: RouterModel | null;
  /** The rule table (default the office table, `ROUTE_RULES`). */
  readonly rules?: readonly RouteRule[];
  /** Add the office table's cross-system signal (default: when `rules` is the office table). */
  readonly crossSystem?: boolean;
}

/**
 * Decides which line serves a request: rules, then the embedded classifier, combined in
 * `combineScores`; below the threshold for both lines → `readonly_fallback`.
 */
export function route(query: string, options?: RouteOptions & RouteSetup): RouteDecision {
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
    if (options?.model === null) decision.routing = 'rules-only';
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
  const model = options?.model === null ? null : (options?.model ?? shippedRouterModel());
  const p = model ? classifyNormalized(model, normalized) : EVEN;
  const classifier = { deep: p[0]!, quick: p[1]!, readonly_fallback: p[2]! };
  const rules = options?.rules ?? ROUTE_RULES_DEFAULT;
  const hits = matchRules(normalized, rules, options?.crossSystem ?? rules === ROUTE_RULES_DEFAULT);
  const combined = combineScores(classifier, hits);
  const scores = { deep: combined.deep, quick: combined.quick };
  const target = pickTarget(scores, threshold);
  const top = hits[0];
  const decision: RouteDecision = { target, scores, rule: top ? top.id : null };
  if (!model) decision.routing = 'rules-only';
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
