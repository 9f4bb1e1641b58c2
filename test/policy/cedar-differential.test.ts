import * as cedar from '@cedar-policy/cedar-wasm/nodejs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Identity } from '../../src/core/index.js';
import {
  BUILTIN_RULES,
  cedarRequest,
  loadPolicyFile,
  type PolicyDocument,
  PolicyEngine,
  parsePolicyDocument,
  type ToolFacts,
  toCedarPolicies,
} from '../../src/policy/index.js';
import { argsArb, documentArb, identityArb, toolArb } from './arbitraries.js';

type Answer = { decision: 'allow' | 'deny'; reasons: string[]; errors: unknown[] };

// One slot per live document: re-preparsing under a reused id keeps Cedar's cache small.
let current: PolicyDocument | undefined;

/** Cedar's answer, with the document's policy set parsed once and cached inside Cedar. */
function cedarDecide(doc: PolicyDocument, identity: Identity, tool: ToolFacts, args: unknown): Answer {
  const id = 'differential';
  if (current !== doc) {
    const parsed = cedar.preparsePolicySet(id, { staticPolicies: toCedarPolicies(doc) });
    if (parsed.type !== 'success') throw new Error(JSON.stringify(parsed.errors));
    current = doc;
  }
  const req = cedarRequest(identity, tool, args);
  const a = cedar.statefulIsAuthorized({
    ...req,
    preparsedPolicySetId: id,
  } as cedar.StatefulAuthorizationCall);
  if (a.type !== 'success') throw new Error(JSON.stringify(a.errors));
  return {
    decision: a.response.decision,
    reasons: a.response.diagnostics.reason,
    errors: a.response.diagnostics.errors,
  };
}

/** Same decision, and the rule we name is one Cedar also found determining. */
function assertSame(
  doc: PolicyDocument,
  engine: PolicyEngine,
  identity: Identity,
  tool: ToolFacts,
  args: unknown,
) {
  const ours = engine.decide(identity, tool, args);
  tally[ours.effect]++;
  const theirs = cedarDecide(doc, identity, tool, args);
  expect(theirs.errors).toEqual([]);
  expect(ours.effect).toBe(theirs.decision);
  if (ours.ruleId === BUILTIN_RULES.defaultDeny) expect(theirs.reasons).toEqual([]);
  else expect(theirs.reasons).toContain(ours.ruleId);
}

const tally = { allow: 0, deny: 0 };

describe('policy engine vs Cedar (differential)', () => {
  afterAll(() => {
    // the comparison is only meaningful if both outcomes occur often
    expect(tally.allow).toBeGreaterThan(100);
    expect(tally.deny).toBeGreaterThan(100);
  });

  it('the office policy decides like Cedar on random users, tools and arguments', () => {
    const doc = loadPolicyFile('examples/office/policies.yaml');
    const engine = new PolicyEngine(doc);
    fc.assert(
      fc.property(identityArb, toolArb, argsArb, (identity, tool, args) => {
        assertSame(doc, engine, identity, tool, args);
      }),
      { numRuns: 2000 },
    );
  }, 120_000);

  it('random policy documents decide like Cedar on random requests', () => {
    fc.assert(
      fc.property(
        documentArb,
        fc.array(fc.tuple(identityArb, toolArb, argsArb), { minLength: 1, maxLength: 10 }),
        (raw, requests) => {
          const doc = parsePolicyDocument(raw, 'random.yaml');
          const engine = new PolicyEngine(doc);
          for (const [identity, tool, args] of requests) assertSame(doc, engine, identity, tool, args);
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);
});
