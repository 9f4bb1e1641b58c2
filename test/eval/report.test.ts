import { describe, expect, it } from 'vitest';
import {
  compareToBaseline,
  type EvalReport,
  gateViolations,
  judgeScenario,
  percentile,
  renderHtmlReport,
  type ScenarioReport,
  summarize,
} from '../../src/eval/index.js';

function row(id: string, over: Partial<ScenarioReport> = {}): ScenarioReport {
  return {
    id,
    kind: 'normal',
    passed: true,
    route: 'quick',
    outcome: 'completed',
    executed: [],
    denied: [],
    failures: [],
    latency_ms: 10,
    output: '',
    misuse: [],
    decisions: [],
    proposed_calls: 1,
    file: 'x.yaml',
    ...over,
  };
}
const report = (rows: ScenarioReport[]): EvalReport => ({
  summary: summarize(rows),
  scenarios: rows,
  meta: { started_at: '2026-11-30T00:00:00Z', suites: ['x.yaml'] },
});

describe('metrics', () => {
  it.each([
    [[], 95, 0],
    [[5], 95, 5],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20], 95, 19],
    [[3, 1, 2], 50, 2],
  ])('percentile(%j, %d) = %d', (values, p, want) => {
    expect(percentile(values, p)).toBe(want);
  });

  it('misuse rate counts escalation and injection proposals only', () => {
    const s = summarize([
      row('a', { kind: 'escalation', proposed_calls: 3, misuse: ['x'] }),
      row('b', { kind: 'injection', proposed_calls: 1 }),
      row('c', { kind: 'normal', proposed_calls: 10 }),
    ]);
    expect(s.misuse_rate).toBe(0.25);
    expect(s.misuse_calls).toBe(1);
    expect(s.by_kind.escalation?.misuse_rate).toBe(0.3333);
    expect(s.by_kind.normal?.misuse_rate).toBe(0);
  });
});

describe('judging a scenario', () => {
  const obs = {
    route: 'quick',
    outcome: 'completed',
    text: 'You have 3\u200b meet\u2060ings',
    executed: ['calendar_list'],
    denied: [],
    misuse: [],
  };
  it.each([
    [{ route: 'quick' as const }, []],
    [{ route: 'deep' as const }, ['route: expected deep, got quick']],
    [
      { outcome: ['denied', 'review'] as ('denied' | 'review')[] },
      ['outcome: expected denied | review, got completed'],
    ],
    [{ executed: ['calendar_list', 'ticket_create'] }, ['executed: ticket_create did not run']],
    [{ not_executed: ['calendar_list'] }, ['not_executed: calendar_list ran']],
    [{ output_includes: ['3 MEETINGS'] }, []],
    [{ output_excludes: ['meetings'] }, ['output_excludes: found "meetings"']],
  ])('%j → %j', (expectation, failures) => {
    expect(judgeScenario(expectation, obs)).toEqual(failures);
  });
});

describe('baseline and gate', () => {
  const base = report([row('a'), row('b'), row('c', { passed: false, failures: ['x'] }), row('gone')]);
  const now = report([
    row('a'),
    row('b', {
      passed: false,
      failures: ['misuse: y'],
      misuse: ['y'],
      executed: ['sales_query'],
      kind: 'escalation',
    }),
    row('c'),
    row('new'),
  ]);

  it('lists every changed scenario', () => {
    const cmp = compareToBaseline(now, base);
    expect(cmp.changed.map((c) => [c.id, c.change])).toEqual([
      ['b', 'regressed'],
      ['c', 'fixed'],
      ['new', 'added'],
      ['gone', 'removed'],
    ]);
  });

  it('reports a route change even when both runs pass (a routing regression)', () => {
    const before = report([row('r', { route: 'quick' })]);
    const after = report([row('r', { route: 'deep', outcome: 'queued' })]);
    const cmp = compareToBaseline(after, before);
    expect(cmp.changed).toEqual([
      expect.objectContaining({
        id: 'r',
        change: 'changed',
        before: expect.objectContaining({ route: 'quick' }),
      }),
    ]);
    expect(cmp.changed[0]?.after?.route).toBe('deep');
  });

  it.each([
    [{ maxMisuse: 0, maxSuccessDrop: 0.5, maxP95Increase: 0.5 }, [/misuse: 1/]],
    [{ maxMisuse: 5, maxSuccessDrop: 0.5, maxP95Increase: 0.5 }, []],
  ])('gate %j', (t, want) => {
    const v = gateViolations(now, compareToBaseline(now, base), t);
    expect(v.length).toBe(want.length);
    for (const [i, re] of want.entries()) expect(v[i]).toMatch(re);
  });

  it('fails on a success drop beyond the threshold', () => {
    const worse = report([row('a', { passed: false }), row('b'), row('c'), row('gone')]);
    const ok = report([row('a'), row('b'), row('c'), row('gone')]);
    expect(gateViolations(worse, compareToBaseline(worse, ok))[0]).toMatch(
      /success rate fell by 25\.00 points/,
    );
  });

  it('renders a self-contained HTML page with inline SVG charts', () => {
    const html = renderHtmlReport(now, compareToBaseline(now, base));
    expect(html).toContain('<svg');
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
    expect(html).toContain('regressed');
  });
});
