import type { AuditRecord } from '../../store/index.js';

/** How a call ended, as the overview's plots group it. */
export type OutcomeClass = 'allowed' | 'denied' | 'review' | 'error';

const CLASS_OF: Readonly<Record<string, OutcomeClass>> = {
  executed: 'allowed',
  denied: 'denied',
  rate_limited: 'denied',
  ask: 'review',
  review: 'review',
  failed: 'error',
  timeout: 'error',
  cancelled: 'error',
};

export interface DecisionBucket {
  /** ISO start of the bucket. */
  readonly start: string;
  readonly counts: Readonly<Record<OutcomeClass, number>>;
}

export interface Overview {
  readonly since: string;
  readonly until: string;
  /** How many records the figures are computed from (at most the query's limit). */
  readonly records: number;
  readonly buckets: readonly DecisionBucket[];
  readonly topDenyingRules: readonly {
    readonly stage: string;
    readonly rule: string;
    readonly count: number;
  }[];
  readonly latencyByLine: readonly {
    readonly line: string;
    readonly count: number;
    readonly p50Ms: number;
    readonly p95Ms: number;
  }[];
}

/** The nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[rank]! * 100) / 100;
}

/**
 * The overview's figures from audit records (docs/operations.md, "Console"): decisions over time
 * by outcome, the rules that denied most, p50/p95 gateway latency per line. Pure.
 */
export function overviewOf(
  records: readonly AuditRecord[],
  window: { readonly since: Date; readonly until: Date; readonly buckets: number },
): Overview {
  const from = window.since.getTime();
  const span = Math.max(1, window.until.getTime() - from);
  const width = span / window.buckets;
  const buckets = Array.from({ length: window.buckets }, (_, i) => ({
    start: new Date(from + i * width).toISOString(),
    counts: { allowed: 0, denied: 0, review: 0, error: 0 } as Record<OutcomeClass, number>,
  }));
  const denying = new Map<string, { stage: string; rule: string; count: number }>();
  const latencies = new Map<string, number[]>();
  for (const r of records) {
    const t = Date.parse(r.time);
    const cls = CLASS_OF[r.status] ?? 'error';
    const i = Math.floor((t - from) / width);
    if (i >= 0 && i < buckets.length) buckets[i]!.counts[cls]++;
    if (cls === 'denied' && r.decidedBy) {
      const key = `${r.decidedBy.stage}\0${r.decidedBy.ruleId}`;
      const d = denying.get(key) ?? { stage: r.decidedBy.stage, rule: r.decidedBy.ruleId, count: 0 };
      d.count++;
      denying.set(key, d);
    }
    const list = latencies.get(r.domain) ?? [];
    list.push(r.durationMs);
    latencies.set(r.domain, list);
  }
  return {
    since: window.since.toISOString(),
    until: window.until.toISOString(),
    records: records.length,
    buckets,
    topDenyingRules: [...denying.values()]
      .sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule))
      .slice(0, 8),
    latencyByLine: [...latencies.entries()]
      .map(([line, values]) => {
        const sorted = [...values].sort((a, b) => a - b);
        return { line, count: sorted.length, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95) };
      })
      .sort((a, b) => a.line.localeCompare(b.line)),
  };
}
