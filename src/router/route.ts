import { classifyNormalized, type RouterModel } from './classifier.js';
import { requestContext } from './context.js';
import { combineScores, pickTarget } from './decide.js';
import { RouterModelError } from './errors.js';
import { historyPrior } from './history.js';
import { shippedRouterModel } from './model-file.js';
import { normalizeRequest } from './normalize.js';
import { matchRules, ROUTE_RULES as ROUTE_RULES_DEFAULT, type RouteRule } from './rules.js';
import {
  DEFAULT_ROUTE_THRESHOLD,
  type RouteDecision,
  type RouteOptions,
  type RouteTarget,
  type RuleHit,
} from './types.js';

/** Why the strongest rule's lean is not the result (a rule never contradicts its name silently). */
function overrideReason(top: RuleHit, target: RouteTarget, best: number, threshold: number): string {
  if (target === 'readonly_fallback')
    return `rule ${top.id} leans ${top.lean}, but no tool line reached ${threshold} (best ${best.toFixed(3)}): the rest of the request did not bear it out, so no tool runs`;
  return `rule ${top.id} leans ${top.lean}, but the request's other evidence favoured ${target}: a rule is one weighted feature of the classifier, not a verdict`;
}

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
 * Decides which line serves a request. The embedded classifier reads the request's n-grams,
 * words and context — the rules it matches are features with learned weights
 * (docs/router.md) — and its calibrated probabilities, shifted by the user's recent routes when
 * given (`recent`), are compared with the threshold: below it for both lines →
 * `readonly_fallback`.
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
  const context = requestContext(normalized);
  const p = model ? classifyNormalized(model, normalized, context) : EVEN;
  const classifier = { deep: p[0]!, quick: p[1]!, readonly_fallback: p[2]! };
  // The office table is already matched in the context; a domain's own table is matched here.
  const rules = options?.rules ?? ROUTE_RULES_DEFAULT;
  const hits =
    rules === ROUTE_RULES_DEFAULT && options?.crossSystem !== false
      ? context.rules
      : matchRules(
          normalized,
          rules,
          context.segmented,
          options?.crossSystem ?? rules === ROUTE_RULES_DEFAULT,
        );
  const prior = historyPrior(options?.recent);
  // Rules count twice, on purpose: as classifier features (their learned weight weighs them
  // against the rest of the request) and as the bounded log-odds evidence of docs/router.md
  // (an undecided classifier is lifted by a firm rule; a rule against a confident classifier
  // sends the request to the read-only line, never to the rule's line). Without a classifier
  // every class starts even and the rules alone move the request.
  const combined = combineScores(classifier, [...hits, ...prior]);
  const scores = { deep: combined.deep, quick: combined.quick };
  const target = pickTarget(scores, threshold);
  const top = hits[0];
  const decision: RouteDecision = { target, scores, rule: top ? top.id : null };
  const overridden = top !== undefined && top.lean !== target;
  if (overridden)
    decision.reason = overrideReason(top, target, Math.max(scores.deep, scores.quick), threshold);
  if (!model) decision.routing = 'rules-only';
  if (options?.explain) {
    decision.features = {
      classifier,
      rules: hits,
      ruleOverridden: overridden,
      threshold,
      context: context.features.filter((f) => !f.startsWith('zw')),
      ...(prior.length > 0 ? { history: prior } : {}),
    };
  }
  return decision;
}
