import { describe, expect, it } from 'vitest';
import {
  checkProfile,
  DECISION_SLOTS,
  explainLines,
  Pipeline,
  PipelineError,
  PROFILE_NAMES,
  PROFILES,
  RESULT_SLOTS,
  reviewReplayProfile,
  SLOTS,
} from '../../src/pipeline/index.js';
import { PolicyEngine } from '../../src/policy/index.js';
import type { AuditSink } from '../../src/store/index.js';
import { ToolRegistry } from '../../src/tools/index.js';

const NO_AUDIT: AuditSink = { record() {}, flush: async () => {} };
const tools = { tools: new ToolRegistry() };
const policy = new PolicyEngine({
  rules: [],
  parameters: { tools: {}, thirdParty: { minRisk: 'high', minRun: 16 } },
});

/** The slots each door switches off (everything else is on), as docs/architecture.md lists them. */
const OFF: Readonly<Record<string, readonly string[]>> = {
  'serve.deep': ['hooks', 'approval', 'rate-limit'],
  'serve.quick': ['hooks', 'approval'],
  'serve.readonly': ['hooks', 'approval', 'rate-limit', 'fact'],
  'agent-session': ['hooks', 'rate-limit', 'breaker', 'fact'],
  'stream-json': ['rate-limit', 'breaker', 'fact'],
  'host-session': ['rate-limit', 'breaker', 'fact'],
  library: ['hooks', 'approval', 'rate-limit', 'breaker', 'fact'],
};

describe('pipeline profiles', () => {
  it.each(PROFILE_NAMES)('%s: every slot is on, or off with a written reason', (name) => {
    const p = PROFILES[name];
    const off = SLOTS.filter((s) => !p.slots[s].on);
    expect(off).toEqual(OFF[name]);
    for (const s of off) {
      const setting = p.slots[s];
      expect(setting.on === false && setting.reason.length > 20).toBe(true);
    }
  });

  it('derived profiles only switch slots off, each with its reason', () => {
    for (const name of PROFILE_NAMES) {
      for (const derived of [checkProfile(PROFILES[name]), reviewReplayProfile(PROFILES[name])]) {
        for (const s of SLOTS) {
          if (!PROFILES[name].slots[s].on) expect(derived.slots[s].on).toBe(false);
        }
      }
      expect(checkProfile(PROFILES[name]).slots.breaker.on).toBe(false);
      expect(reviewReplayProfile(PROFILES[name]).slots.review.on).toBe(false);
    }
  });

  it('a gateway runs its stages in the one slot order', () => {
    const pipeline = new Pipeline({ policy, audit: NO_AUDIT, breakers: undefined });
    const g = pipeline.gateway(PROFILES['agent-session'], tools);
    expect(g.stages.map((s) => s.name)).toEqual([
      'access',
      'schema',
      'policy',
      'parameters',
      'intent',
      'review',
      'approval',
    ]);
    expect(g.resultStages.map((s) => s.name)).toEqual(['result.quote', 'result.redact']);
    expect(DECISION_SLOTS.indexOf('policy')).toBeLessThan(DECISION_SLOTS.indexOf('approval'));
    expect(RESULT_SLOTS).toEqual(['quote', 'redact', 'fact']);
  });

  it('a slot that is on without the layer that fills it is an error, not a gap', () => {
    const pipeline = new Pipeline({ policy, audit: NO_AUDIT });
    expect(() => pipeline.gateway(PROFILES['serve.quick'], tools)).toThrow(PipelineError);
    expect(() => pipeline.gateway(PROFILES['serve.quick'], tools)).toThrow(/rate-limit slot on/);
  });

  it('without policy files the policy slot falls to the manifests and parameters say why they are off', () => {
    const pipeline = new Pipeline({ audit: NO_AUDIT });
    const slots = pipeline.explain(PROFILES.library);
    expect(slots.find((s) => s.slot === 'policy')).toMatchObject({ on: true, stage: 'rbac' });
    expect(slots.find((s) => s.slot === 'parameters')).toMatchObject({
      on: false,
      reason: expect.stringMatching(/no policy files/),
    });
    const text = explainLines(PROFILES.library, slots).join('\n');
    expect(text).toMatch(/^profile: library/);
    expect(text).toMatch(/approval\s+off\s+the library caller is the host/);
  });
});
