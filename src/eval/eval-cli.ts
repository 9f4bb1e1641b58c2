import { readFileSync, writeFileSync } from 'node:fs';
import { ConfigError } from '../core/index.js';
import {
  type BaselineComparison,
  compareToBaseline,
  DEFAULT_THRESHOLDS,
  type GateThresholds,
  gateViolations,
} from './compare-baseline.js';
import { renderHtmlReport } from './html-report.js';
import { loadSuites } from './load-suite.js';
import { ProgressBar } from './progress-bar.js';
import type { EvalReport } from './report.js';
import { runSuites } from './run-suite.js';
import { SCENARIO_KINDS } from './suite-schema.js';

/** Options of `twinline eval` as commander hands them over. */
export interface EvalCommandOptions {
  json?: boolean;
  baseline?: string;
  config?: string;
  html?: string;
  maxMisuse?: string;
  maxSuccessDrop?: string;
  maxP95Increase?: string;
}

function number(raw: string | undefined, flag: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) {
    throw new ConfigError('eval.bad-option', `${flag} must be a non-negative number, got "${raw}"`, {
      where: 'twinline eval',
    });
  }
  return n;
}

function readBaseline(file: string): EvalReport {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError('eval.bad-baseline', `cannot read baseline report: ${(err as Error).message}`, {
      where: file,
    });
  }
  const r = data as Partial<EvalReport>;
  if (!r || typeof r !== 'object' || !r.summary || !Array.isArray(r.scenarios)) {
    throw new ConfigError('eval.bad-baseline', 'not an eval report (needs summary and scenarios)', {
      where: file,
    });
  }
  return r as EvalReport;
}

/** Runs `twinline eval`; returns the exit code (0 pass, 1 misuse or regression beyond thresholds). */
export async function runEvalCommand(paths: readonly string[], opts: EvalCommandOptions): Promise<number> {
  const thresholds: GateThresholds = {
    maxMisuse: number(opts.maxMisuse, '--max-misuse', DEFAULT_THRESHOLDS.maxMisuse),
    maxSuccessDrop: number(opts.maxSuccessDrop, '--max-success-drop', DEFAULT_THRESHOLDS.maxSuccessDrop),
    maxP95Increase: number(opts.maxP95Increase, '--max-p95-increase', DEFAULT_THRESHOLDS.maxP95Increase),
  };
  const baseline = opts.baseline ? readBaseline(opts.baseline) : undefined;
  const suites = loadSuites(paths);
  const bar = new ProgressBar();
  let failed = 0;
  const report = await runSuites(suites, {
    ...(opts.config ? { config: opts.config } : {}),
    onProgress: (done, total, row) => {
      if (!row.passed) failed++;
      bar.update(done, total, row.id, failed);
    },
  });
  bar.done();
  const comparison = baseline ? compareToBaseline(report, baseline) : undefined;
  const violations = gateViolations(report, comparison, thresholds);
  if (opts.html) writeFileSync(opts.html, renderHtmlReport(report, comparison));
  if (opts.json) {
    const out = {
      ...report,
      ...(comparison ? { baseline: comparison } : {}),
      gate: { passed: violations.length === 0, violations },
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    process.stdout.write(formatText(report, comparison, violations));
  }
  return violations.length === 0 ? 0 : 1;
}

const pct = (n: number) => `${(n * 100).toFixed(1)}%`;

/** The human summary: per-kind table, failures, baseline changes, gate verdict. */
export function formatText(
  report: EvalReport,
  comparison: BaselineComparison | undefined,
  violations: readonly string[],
): string {
  const s = report.summary;
  const lines: string[] = [];
  lines.push('kind         scenarios  passed  success  misuse  avg ms  p95 ms');
  const row = (name: string, m: (typeof s.by_kind)[keyof typeof s.by_kind] & object) =>
    `${name.padEnd(12)} ${String(m.scenarios).padStart(9)}  ${String(m.passed).padStart(6)}  ${pct(m.success_rate).padStart(7)}  ${pct(m.misuse_rate).padStart(6)}  ${String(m.latency_ms.avg).padStart(6)}  ${String(m.latency_ms.p95).padStart(6)}`;
  for (const k of SCENARIO_KINDS) {
    const m = s.by_kind[k];
    if (m) lines.push(row(k, m));
  }
  lines.push(row('total', s));
  const failedRows = report.scenarios.filter((r) => !r.passed);
  if (failedRows.length > 0) {
    lines.push('', 'failed scenarios:');
    for (const r of failedRows) lines.push(`  ${r.id} (${r.kind}): ${r.failures.join('; ')}`);
  }
  if (comparison) {
    lines.push(
      '',
      `against the baseline: success ${comparison.success_rate_delta >= 0 ? '+' : ''}${(comparison.success_rate_delta * 100).toFixed(2)} points, misuse ${comparison.misuse_rate_delta >= 0 ? '+' : ''}${comparison.misuse_rate_delta}, p95 ${comparison.latency_ms.p95_delta >= 0 ? '+' : ''}${comparison.latency_ms.p95_delta} ms`,
    );
    if (comparison.changed.length === 0) lines.push('  no scenario changed');
    for (const c of comparison.changed) {
      const fmt = (x: typeof c.before) =>
        x ? `${x.passed ? 'pass' : 'fail'} ${x.route}/${x.outcome} [${x.executed.join(',')}]` : '-';
      lines.push(`  ${c.change.padEnd(9)} ${c.id}: ${fmt(c.before)} -> ${fmt(c.after)}`);
    }
  }
  lines.push(
    '',
    violations.length === 0
      ? 'gate: passed'
      : `gate: FAILED\n${violations.map((v) => `  - ${v}`).join('\n')}`,
  );
  return `${lines.join('\n')}\n`;
}
