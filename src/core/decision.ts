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

/** Which decision of a path answers "decided by": the rule, its stage and the reason it gave. */
export interface DecidedBy {
  readonly stage: string;
  readonly ruleId: string;
  readonly reason: string;
  readonly verdict: Verdict;
}

// Allows that are a grant, in the order "decided by" prefers them: a person's approval (a
// reviewer, the host or a parent agent), then the policy rule or manifest roles that permitted the
// call. Later allows (approval mode, rate limit, breaker) only let a granted call through.
const PERSON_GRANTS: ReadonlySet<string> = new Set([
  'review.approved',
  'review.self-approved',
  'approval.granted',
]);
const POLICY_STAGES: ReadonlySet<string> = new Set(['policy', 'rbac']);

/**
 * The decision that decided a call (docs/operations.md, "Decision log"): for a call that ran, the
 * grant that allowed it — a person's approval first, then the policy rule — never the last stage
 * it passed; otherwise the deciding (last) decision.
 */
export function decidedBy(status: string, path: readonly StageDecision[]): DecidedBy | undefined {
  if (path.length === 0) return undefined;
  let chosen = path[path.length - 1]!;
  if (status === 'executed') {
    chosen =
      path.find((d) => d.verdict === 'allow' && PERSON_GRANTS.has(d.ruleId)) ??
      path.find((d) => d.verdict === 'allow' && POLICY_STAGES.has(d.stage)) ??
      chosen;
  }
  return { stage: chosen.stage, ruleId: chosen.ruleId, reason: chosen.reason, verdict: chosen.verdict };
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
