import { describe, expect, it } from 'vitest';
import {
  combineScores,
  matchRules,
  normalizeRequest,
  pickTarget,
  type RuleHit,
  route,
} from '../../src/router/index.js';

const hit = (lean: RuleHit['lean'], weight: number): RuleHit => ({ id: `t.${lean}`, lean, weight });

describe('combining rules with the classifier', () => {
  it('a firm rule lifts an undecided classifier over the threshold', () => {
    const s = combineScores({ deep: 0.34, quick: 0.33, readonly_fallback: 0.33 }, [hit('deep', 2.5)]);
    expect(pickTarget(s, 0.82)).toBe('deep');
  });

  it('a weak rule does not beat a classifier confident in the other line', () => {
    const s = combineScores({ deep: 0.02, quick: 0.96, readonly_fallback: 0.02 }, [hit('deep', 0.8)]);
    expect(pickTarget(s, 0.82)).toBe('quick');
  });

  it('a rule and a classifier that disagree land on the read-only line', () => {
    const s = combineScores({ deep: 0.1, quick: 0.8, readonly_fallback: 0.1 }, [hit('deep', 2.5)]);
    expect(pickTarget(s, 0.82)).toBe('readonly_fallback');
  });

  it('rule boosts are capped so stacked rules cannot force a line against everything', () => {
    const s = combineScores({ deep: 0.001, quick: 0.998, readonly_fallback: 0.001 }, [
      hit('deep', 2.5),
      hit('deep', 2.5),
      hit('deep', 2.5),
    ]);
    expect(pickTarget(s, 0.82)).toBe('quick');
  });

  it('对比 matches a deep rule, yet a plain two-option comparison stays quick', () => {
    const d = route('对比一下两个方案的利弊', { explain: true });
    expect(d.rule).toBe('deep.zh.compare');
    expect(d.target).toBe('quick');
    expect(d.features?.ruleOverridden).toBe(true);
  });

  it('a question about writing a report trips a deep rule but runs no tool', () => {
    const d = route('how should I write a good report', { explain: true });
    expect(d.features?.rules.map((r) => r.id)).toContain('deep.en.report');
    expect(d.target).toBe('readonly_fallback');
  });

  it('cross-system references count as a deep signal', () => {
    expect(matchRules(normalizeRequest('把考勤和薪资数据放在一起看')).map((h) => h.id)).toContain(
      'deep.cross-system',
    );
  });
});

describe('threshold', () => {
  it('raising the threshold above a decision’s score sends it to the read-only line', () => {
    const q = '整理一下客户资料';
    const d = route(q, { threshold: 0.5 });
    const best = Math.max(d.scores.deep, d.scores.quick);
    const above = route(q, { threshold: Math.min(1, best + 0.01) });
    expect(above.target).toBe('readonly_fallback');
    expect(above.scores).toEqual(d.scores);
  });

  it('a decision at the default threshold never goes to a line scoring below it', () => {
    for (const q of [
      '把发票发给财务',
      '销售趋势',
      '帮我准备明天见客户的材料',
      'what happened with the Acme deal',
    ]) {
      const d = route(q);
      if (d.target !== 'readonly_fallback') expect(d.scores[d.target]).toBeGreaterThanOrEqual(0.82);
    }
  });

  it('rejects a threshold outside (0, 1]', () => {
    expect(() => route('x', { threshold: 0 })).toThrow(/threshold/);
    expect(() => route('x', { threshold: 1.5 })).toThrow(/threshold/);
  });

  it('explains its decision on request only', () => {
    expect(route('你好').features).toBeUndefined();
    const f = route('你好', { explain: true }).features!;
    expect(f.threshold).toBe(0.82);
    expect(f.classifier.readonly_fallback).toBeGreaterThan(0.5);
  });
});
