import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/core/index.js';
import { defaultStages, type GatewayStage, insertStage, STAGE_ORDER } from '../../src/gateway/index.js';

const stage = (name: string): GatewayStage => ({
  name,
  evaluate: () => decide('allow', name, `${name}.ok`, 'ok'),
});
const names = (list: readonly GatewayStage[]) => list.map((s) => s.name);

describe('insertStage', () => {
  it('ships schema, rbac, review in canonical order', () => {
    expect(names(defaultStages())).toEqual(['schema', 'rbac', 'review']);
    const rank = (n: string) => STAGE_ORDER.indexOf(n as (typeof STAGE_ORDER)[number]);
    expect(names(defaultStages()).map(rank)).toEqual(
      [...names(defaultStages()).map(rank)].sort((a, b) => a - b),
    );
  });

  it('places before / after a stage that is present', () => {
    expect(names(insertStage(defaultStages(), stage('access'), { before: 'schema' }))).toEqual([
      'access',
      'schema',
      'rbac',
      'review',
    ]);
    expect(names(insertStage(defaultStages(), stage('policy'), { after: 'rbac' }))).toEqual([
      'schema',
      'rbac',
      'policy',
      'review',
    ]);
  });

  it('falls back to the canonical slot when the anchor is absent', () => {
    // parameters goes before intent, which is absent: canonical order puts it before review.
    expect(names(insertStage(defaultStages(), stage('parameters'), { before: 'intent' }))).toEqual([
      'schema',
      'rbac',
      'parameters',
      'review',
    ]);
    expect(names(insertStage(defaultStages(), stage('resilience'), { after: 'approval' }))).toEqual([
      'schema',
      'rbac',
      'review',
      'resilience',
    ]);
    expect(names(insertStage(defaultStages(), stage('custom'), { after: 'nowhere' }))).toEqual([
      'schema',
      'rbac',
      'review',
      'custom',
    ]);
  });

  it('inserting every canonical slot in any order yields the canonical order', () => {
    const extra = STAGE_ORDER.filter((n) => !['schema', 'rbac', 'review'].includes(n));
    fc.assert(
      fc.property(fc.shuffledSubarray([...extra], { minLength: extra.length }), (order) => {
        let list = defaultStages();
        for (const n of order) {
          const i = STAGE_ORDER.indexOf(n);
          list = insertStage(list, stage(n), { after: STAGE_ORDER[i - 1] ?? '' });
          if (i === 0) list = [stage(n), ...list.filter((s) => s.name !== n)];
        }
        expect(names(list)).toEqual([...STAGE_ORDER]);
      }),
      { numRuns: 200 },
    );
  });

  it('never mutates the list it is given', () => {
    const list = defaultStages();
    insertStage(list, stage('policy'), { after: 'rbac' });
    expect(names(list)).toEqual(['schema', 'rbac', 'review']);
  });
});
