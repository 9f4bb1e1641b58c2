import type { SandboxGrant } from './sandbox-grant.js';

/**
 * The vocabulary every gateway stage speaks. `allow` lets the call continue to the next stage; the
 * first non-allow verdict ends the call.
 */
export type Verdict = 'allow' | 'deny' | 'ask' | 'review';

/** One stage's verdict, always explainable: which stage, which rule, why. */
export interface StageDecision {
  readonly verdict: Verdict;
  /** Stage name, e.g. `schema`, `access`, `policy`, `parameters`. */
  readonly stage: string;
  /** Stable id of the rule that decided, e.g. `rbac.role-not-allowed` or a policy rule id. */
  readonly ruleId: string;
  /** Human- and model-readable reason. Never contains data the caller may not see. */
  readonly reason: string;
  /** Stage-specific structured details (e.g. `retryAfterMs`, `now`, narrowed values). */
  readonly details?: Readonly<Record<string, unknown>>;
  /** Arguments rewritten by this stage (e.g. scope narrowing); later stages see these. */
  readonly updatedArgs?: unknown;
  /**
   * The sandbox the call's processes run under, when this stage decides it (the approval stage
   * does, for shell). The gateway hands the last one on the path to `execute`; see docs/sandbox.md.
   */
  readonly sandbox?: SandboxGrant;
  /**
   * The stage's rewrite is a new call (a host hook edited the input): the gateway decides it
   * again from the first slot on `updatedArgs`, and at this stage's slot stands on `reenter`
   * instead of asking the stage again.
   */
  readonly reenter?: StageDecision;
}

/** Convenience constructor that keeps stage/rule naming consistent. */
export function decide(
  verdict: Verdict,
  stage: string,
  ruleId: string,
  reason: string,
  extra?: { details?: Record<string, unknown>; updatedArgs?: unknown; sandbox?: SandboxGrant },
): StageDecision {
  return { verdict, stage, ruleId, reason, ...extra };
}
