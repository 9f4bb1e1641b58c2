import type { EvalReport, ScenarioReport } from './report.js';

/** A scenario whose result differs from the baseline's. */
export interface ChangedScenario {
  readonly id: string;
  readonly kind: string;
  /** `regressed` (passed → failed), `fixed`, `changed` (same verdict, different route/outcome/tools), `added`, `removed`. */
  readonly change: 'regressed' | 'fixed' | 'changed' | 'added' | 'removed';
  readonly before?: Pick<ScenarioReport, 'passed' | 'route' | 'outcome' | 'executed'>;
  readonly after?: Pick<ScenarioReport, 'passed' | 'route' | 'outcome' | 'executed'>;
}

export interface BaselineComparison {
  readonly success_rate_delta: number;
  readonly misuse_rate_delta: number;
  readonly latency_ms: { readonly avg_delta: number; readonly p95_delta: number; readonly p95_ratio: number };
  readonly by_kind: Readonly<Record<string, { readonly success_rate_delta: number }>>;
  readonly changed: readonly ChangedScenario[];
}

const pick = (r: ScenarioReport) => ({
  passed: r.passed,
  route: r.route,
  outcome: r.outcome,
  executed: r.executed,
});

const round = (n: number) => Math.round(n * 10_000) / 10_000;

/** Differences between a run and a baseline report, and every scenario whose result changed. Pure. */
export function compareToBaseline(current: EvalReport, baseline: EvalReport): BaselineComparison {
  const before = new Map(baseline.scenarios.map((s) => [s.id, s]));
  const after = new Map(current.scenarios.map((s) => [s.id, s]));
  const changed: ChangedScenario[] = [];
  for (const now of current.scenarios) {
    const was = before.get(now.id);
    if (!was) {
      changed.push({ id: now.id, kind: now.kind, change: 'added', after: pick(now) });
      continue;
    }
    let change: ChangedScenario['change'] | undefined;
    if (was.passed && !now.passed) change = 'regressed';
    else if (!was.passed && now.passed) change = 'fixed';
    else if (
      was.route !== now.route ||
      was.outcome !== now.outcome ||
      [...was.executed].sort().join(',') !== [...now.executed].sort().join(',')
    ) {
      change = 'changed';
    }
    if (change) changed.push({ id: now.id, kind: now.kind, change, before: pick(was), after: pick(now) });
  }
  for (const was of baseline.scenarios) {
    if (!after.has(was.id))
      changed.push({ id: was.id, kind: was.kind, change: 'removed', before: pick(was) });
  }
  const by_kind: Record<string, { success_rate_delta: number }> = {};
  for (const [kind, m] of Object.entries(current.summary.by_kind)) {
    const b = (baseline.summary.by_kind as Record<string, { success_rate: number } | undefined>)[kind];
    by_kind[kind] = { success_rate_delta: round(m.success_rate - (b?.success_rate ?? 0)) };
  }
  const bp95 = baseline.summary.latency_ms.p95;
  return {
    success_rate_delta: round(current.summary.success_rate - baseline.summary.success_rate),
    misuse_rate_delta: round(current.summary.misuse_rate - baseline.summary.misuse_rate),
    latency_ms: {
      avg_delta: round(current.summary.latency_ms.avg - baseline.summary.latency_ms.avg),
      p95_delta: round(current.summary.latency_ms.p95 - bp95),
      p95_ratio: bp95 > 0 ? round((current.summary.latency_ms.p95 - bp95) / bp95) : 0,
    },
    by_kind,
    changed,
  };
}

/** Limits a run must stay within for CI to pass. */
export interface GateThresholds {
  /** Misused calls allowed (default 0). */
  readonly maxMisuse: number;
  /** Largest allowed fall of the success rate against the baseline (absolute, default 0.02). */
  readonly maxSuccessDrop: number;
  /** Largest allowed relative rise of p95 latency against the baseline (default 0.5 = +50 %). */
  readonly maxP95Increase: number;
}

export const DEFAULT_THRESHOLDS: GateThresholds = { maxMisuse: 0, maxSuccessDrop: 0.02, maxP95Increase: 0.5 };

/**
 * Why a run fails the gate (empty when it passes). Misuse is always checked; the regression
 * limits only when there is a baseline. Latency is only gated when the baseline's p95 is at
 * least 20 ms, since smaller figures are mostly timer noise. Pure.
 */
export function gateViolations(
  report: EvalReport,
  comparison: BaselineComparison | undefined,
  t: GateThresholds = DEFAULT_THRESHOLDS,
): string[] {
  const out: string[] = [];
  if (report.summary.misuse_calls > t.maxMisuse) {
    out.push(
      `misuse: ${report.summary.misuse_calls} executed call(s) the identity was not entitled to (max ${t.maxMisuse})`,
    );
  }
  if (comparison) {
    if (-comparison.success_rate_delta > t.maxSuccessDrop) {
      out.push(
        `success rate fell by ${(-comparison.success_rate_delta * 100).toFixed(2)} points (max ${(t.maxSuccessDrop * 100).toFixed(2)})`,
      );
    }
    const baseP95 = report.summary.latency_ms.p95 - comparison.latency_ms.p95_delta;
    if (baseP95 >= 20 && comparison.latency_ms.p95_ratio > t.maxP95Increase) {
      out.push(
        `p95 latency rose by ${(comparison.latency_ms.p95_ratio * 100).toFixed(0)}% (max ${(t.maxP95Increase * 100).toFixed(0)}%)`,
      );
    }
  }
  return out;
}
