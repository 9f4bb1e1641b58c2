/** The lines a request can be sent to. `readonly_fallback` runs no tool. */
export type RouteTarget = 'deep' | 'quick' | 'readonly_fallback';

/** Classes the classifier scores; `readonly_fallback` is the third, "none of the two". */
export const ROUTE_CLASSES = ['deep', 'quick', 'readonly_fallback'] as const;
export type RouteClass = (typeof ROUTE_CLASSES)[number];

/** Confidence per tool line after rules and classifier are combined (each in [0, 1]). */
export interface LineScores {
  deep: number;
  quick: number;
}

/** A rule that matched the request. */
export interface RuleHit {
  id: string;
  lean: RouteClass;
  /** Log-likelihood ratio the rule adds to its class (see docs/router.md). */
  weight: number;
}

/** Why the router decided what it decided; returned when `explain` is set. */
export interface RouteFeatures {
  /** Calibrated classifier probabilities before any rule was applied. */
  classifier: { deep: number; quick: number; readonly_fallback: number };
  /** Every rule that matched, strongest first. */
  rules: RuleHit[];
  /** True when the strongest rule leaned one way and the decision went another. */
  ruleOverridden: boolean;
  /** Threshold the decision was made against. */
  threshold: number;
  /** The request's context features (head, question form, rules, systems, urgency). */
  context?: string[];
  /** Log-odds the user's recent routes added, per line. */
  history?: RuleHit[];
}

export interface RouteDecision {
  target: RouteTarget;
  scores: LineScores;
  /** Id of the strongest rule that matched, or null when none did. */
  rule: string | null;
  /** Present when that rule leans another way than `target`: why the result differs from it. */
  reason?: string;
  /** Present when no classifier took part: the domain has no trained model, only its rules. */
  routing?: 'rules-only';
  features?: RouteFeatures;
}

export interface RouteOptions {
  /** Minimum combined confidence a tool line needs; below it for both → readonly_fallback. Default 0.82. */
  threshold?: number;
  /** Include `features` in the decision. */
  explain?: boolean;
  /**
   * The lines this user's recent requests went to, newest last (at most the last 10 count). A
   * weak prior: it can tip a close call, never outweigh a clear one (docs/router.md).
   */
  recent?: readonly RouteTarget[];
}

/** Default confidence a tool line must reach (docs/router.md, "How a decision is made"). */
export const DEFAULT_ROUTE_THRESHOLD = 0.82;
