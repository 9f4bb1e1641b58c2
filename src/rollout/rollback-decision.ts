/** Outcomes counted for one config version. */
export interface VersionMetrics {
  /** Scenarios (eval runs) or requests (live audit) measured. */
  readonly total: number;
  readonly passed: number;
  /** Executed calls the identity was not entitled to. */
  readonly misuse: number;
}

export interface RollbackPolicy {
  /** Largest allowed fall of the canary's success rate below the stable version's (absolute, default 0.02). */
  readonly maxSuccessDrop: number;
  /** Without stable metrics, the lowest acceptable canary success rate (default 0.98). */
  readonly minSuccessRate: number;
  /** Samples the canary needs before its success rate is judged (misuse is judged at once; default 1). */
  readonly minSamples: number;
}

export const DEFAULT_ROLLBACK_POLICY: RollbackPolicy = {
  maxSuccessDrop: 0.02,
  minSuccessRate: 0.98,
  minSamples: 1,
};

export const successRate = (m: VersionMetrics): number => (m.total === 0 ? 1 : m.passed / m.total);

/**
 * Whether a canary must be rolled back, and why: any misuse at all, or a success rate that fell
 * past the threshold (against the stable version when it has metrics, else an absolute floor). Pure.
 */
export function decideRollback(
  canary: VersionMetrics,
  stable: VersionMetrics | undefined,
  policy: RollbackPolicy = DEFAULT_ROLLBACK_POLICY,
): { readonly rollback: boolean; readonly reason: string } {
  if (canary.misuse > 0) {
    return {
      rollback: true,
      reason: `canary misuse: ${canary.misuse} call(s) the caller was not entitled to`,
    };
  }
  if (canary.total < policy.minSamples) return { rollback: false, reason: 'not enough samples yet' };
  const rate = successRate(canary);
  if (stable && stable.total > 0) {
    const base = successRate(stable);
    if (base - rate > policy.maxSuccessDrop) {
      return {
        rollback: true,
        reason: `canary success ${(rate * 100).toFixed(2)}% is ${((base - rate) * 100).toFixed(2)} points below stable ${(base * 100).toFixed(2)}% (max ${(policy.maxSuccessDrop * 100).toFixed(2)})`,
      };
    }
    return { rollback: false, reason: 'within thresholds' };
  }
  if (rate < policy.minSuccessRate) {
    return {
      rollback: true,
      reason: `canary success ${(rate * 100).toFixed(2)}% is below ${(policy.minSuccessRate * 100).toFixed(2)}%`,
    };
  }
  return { rollback: false, reason: 'within thresholds' };
}
