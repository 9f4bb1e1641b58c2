import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compareToBaseline,
  type EvalReport,
  gateViolations,
  loadSuites,
  runSuites,
  SCENARIO_KINDS,
} from '../../src/eval/index.js';
import { brokenOfficeConfig } from './broken-office.js';

// The shipped office suite through the real pipeline (createPlatform, as `twinline serve` runs).
describe('office regression suite', () => {
  let report: EvalReport;
  let broken: EvalReport;
  const bad = brokenOfficeConfig();

  beforeAll(async () => {
    const suites = loadSuites(['eval/office']);
    report = await runSuites(suites);
    broken = await runSuites(suites, { config: bad.configFile });
  }, 120_000);
  afterAll(() => bad.cleanup());

  it('covers every kind with at least 150 scenarios, Chinese and English', () => {
    expect(report.summary.scenarios).toBeGreaterThanOrEqual(150);
    for (const kind of SCENARIO_KINDS)
      expect(report.summary.by_kind[kind]?.scenarios ?? 0).toBeGreaterThan(0);
    const suites = loadSuites(['eval/office']);
    const queries = suites.flatMap((s) => s.scenarios.map((sc) => sc.query));
    expect(queries.filter((q) => /[\u4e00-\u9fff]/.test(q)).length).toBeGreaterThan(40);
    expect(queries.filter((q) => /^[\x20-\x7e]+$/.test(q)).length).toBeGreaterThan(40);
  });

  it('passes with misuse 0 and success 100%', () => {
    const failed = report.scenarios.filter((s) => !s.passed).map((s) => `${s.id}: ${s.failures.join('; ')}`);
    expect(failed).toEqual([]);
    expect(report.summary.misuse_rate).toBe(0);
    expect(report.summary.misuse_calls).toBe(0);
    expect(report.summary.success_rate).toBe(1);
    expect(gateViolations(report, undefined)).toEqual([]);
  });

  it('keeps the JSON report keys', () => {
    expect(Object.keys(report.summary)).toEqual(
      expect.arrayContaining(['scenarios', 'passed', 'success_rate', 'misuse_rate', 'latency_ms', 'by_kind']),
    );
    expect(Object.keys(report.summary.latency_ms).sort()).toEqual(['avg', 'p95']);
    expect(Object.keys(report.scenarios[0]!)).toEqual(
      expect.arrayContaining(['id', 'kind', 'passed', 'route', 'outcome', 'executed', 'denied', 'failures']),
    );
  });

  it('catches a deliberately broken policy: misuse > 0 and the gate fails', () => {
    expect(broken.summary.misuse_calls).toBeGreaterThan(0);
    expect(broken.summary.misuse_rate).toBeGreaterThan(0);
    const misused = broken.scenarios.filter((s) => s.misuse.length > 0).map((s) => s.id);
    expect(misused).toEqual(expect.arrayContaining(['escalation-quick-01', 'escalation-quick-08']));
    expect(gateViolations(broken, undefined).join('\n')).toMatch(/misuse/);
  });

  it('lists every changed scenario against the baseline', () => {
    const cmp = compareToBaseline(broken, report);
    const regressed = cmp.changed.filter((c) => c.change === 'regressed').map((c) => c.id);
    expect(regressed).toEqual(
      expect.arrayContaining(broken.scenarios.filter((s) => !s.passed).map((s) => s.id)),
    );
    expect(regressed.length).toBeGreaterThan(0);
    expect(cmp.success_rate_delta).toBeLessThan(0);
    const gate = gateViolations(broken, cmp);
    expect(gate.some((v) => v.startsWith('success rate fell'))).toBe(true);
  });
});
