import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Identity } from '../../src/core/index.js';
import {
  type Condition,
  checkPolicyDocument,
  compileCondition,
  PolicyConfigError,
  parsePolicyDocument,
  parsePolicyYaml,
  parseReviewerDocument,
  parseYamlWithLines,
  policySchema,
  principalView,
} from '../../src/policy/index.js';
import type { ToolSpec } from '../../src/tools/index.js';

/** One tool whose arguments cover every attribute type conditions distinguish. */
const TOOL = {
  name: 'probe',
  inputSchema: z.strictObject({
    s: z.string(),
    n: z.number().int().min(0).max(100),
    b: z.boolean(),
    list: z.array(z.string()),
    nums: z.array(z.number()),
    e: z.enum(['open', 'closed']),
    obj: z.strictObject({ x: z.string() }),
    opt: z.string().optional(),
  }),
  permissions: { allowedRoles: ['staff'], requiredDataLevel: 'L1', category: 'lab' },
} as unknown as ToolSpec;

const USERS: Identity[] = [
  {
    tenant: 't1',
    user: 'ann',
    roles: ['staff'],
    dataLevel: 'L2',
    attributes: { dept: 'rd', depts: ['rd', 'qa'], clearance: 3, remote: true },
  },
  { tenant: 't1', user: 'ben', roles: ['lead'], dataLevel: 'L3', attributes: { dept: 'qa' } },
];
const SCHEMA = policySchema({ tools: [TOOL], users: USERS });

/** A deny rule on `probe` with this condition, through parse and the load-time check. */
function load(when: unknown): 'ok' | string {
  try {
    const doc = parsePolicyDocument(
      { version: 1, rules: [{ id: 'r', effect: 'deny', tools: ['probe'], when }] },
      'p.yaml',
    );
    checkPolicyDocument(doc, SCHEMA);
    return 'ok';
  } catch (err) {
    if (err instanceof PolicyConfigError) return err.message;
    throw err;
  }
}

// attribute, operator, operand, loads?  — every operator against every attribute type
const TABLE: [string, string, unknown, boolean][] = [
  // equals
  ['args.s', 'equals', 'x', true],
  ['args.s', 'equals', 3, false],
  ['args.s', 'equals', true, false],
  ['args.s', 'equals', ['x'], false],
  ['args.n', 'equals', 3, true],
  ['args.n', 'equals', 'three', false],
  ['args.b', 'equals', true, true],
  ['args.b', 'equals', 'true', false],
  ['args.list', 'equals', ['a', 'b'], true],
  ['args.list', 'equals', 'a', false],
  ['args.e', 'equals', 'open', true],
  ['args.e', 'equals', 'opne', false],
  ['args.obj.x', 'equals', 'y', true],
  ['args.obj.y', 'equals', 'y', false],
  ['args.missing', 'equals', 'x', false],
  ['principal.dept', 'equals', 'rd', true],
  ['principal.dept', 'equals', 2, false],
  ['principal.clearance', 'equals', 3, true],
  ['principal.remote', 'equals', 'yes', false],
  ['principal.nobody_has_this', 'equals', 'x', false],
  ['principal.tenant', 'equals', 't1', true],
  ['principal.tenant', 'equals', 't9', false],
  ['principal.user', 'equals', 'nobody', false],
  ['tool.name', 'equals', 'probe', true],
  ['tool.name', 'equals', 'prbe', false],
  ['args.s', 'equals', 'principal.dept', true],
  ['args.n', 'equals', 'principal.dept', false],
  ['args.list', 'equals', 'principal.depts', true],
  // in
  ['args.s', 'in', ['a', 'b'], true],
  ['args.n', 'in', ['1', '2'], false],
  ['args.list', 'in', ['a'], false],
  ['args.e', 'in', ['open', 'x'], true],
  ['args.e', 'in', ['x', 'y'], false],
  ['args.s', 'in', 'principal.depts', true],
  ['args.s', 'in', 'principal.dept', false],
  ['args.n', 'in', 'principal.depts', false],
  // subsetOf
  ['args.list', 'subsetOf', ['a', 'b'], true],
  ['args.s', 'subsetOf', ['a'], false],
  ['args.list', 'subsetOf', 'principal.depts', true],
  ['args.list', 'subsetOf', 'principal.dept', false],
  // contains
  ['args.list', 'contains', 'a', true],
  ['args.list', 'contains', 3, false],
  ['args.nums', 'contains', 3, true],
  ['args.nums', 'contains', 'three', false],
  ['args.s', 'contains', 'a', false],
  ['principal.roles', 'contains', 'staff', true],
  ['principal.roles', 'contains', 'admin', false],
  ['args.list', 'contains', 'principal.dept', true],
  ['args.list', 'contains', 'principal.clearance', false],
  // orderings
  ['args.n', 'gt', 10, true],
  ['args.n', 'gt', 'two hundred', false],
  ['args.n', 'gt', 100, false],
  ['args.n', 'lt', 0, false],
  ['args.n', 'lte', 0, true],
  ['args.n', 'gte', 'L3', false],
  ['args.s', 'gt', 3, false],
  ['args.list', 'lt', 3, false],
  ['principal.dataLevel', 'gte', 'L3', true],
  ['principal.dataLevel', 'gte', 3, true],
  ['principal.dataLevel', 'gte', 'high', false],
  ['principal.dataLevel', 'gt', 'L4', false],
  ['tool.risk', 'gte', 'high', true],
  ['tool.risk', 'gte', 'L2', false],
  ['tool.risk', 'gte', 'critical', true],
  ['tool.risk', 'gt', 'critical', false],
  ['principal.clearance', 'lt', 5, true],
  ['principal.clearance', 'lt', 'L2', false],
  ['principal.dept', 'lt', 5, false],
  ['args.n', 'lt', 'principal.clearance', true],
  ['principal.dataLevel', 'lte', 'tool.dataLevel', true],
  ['principal.dataLevel', 'lte', 'tool.risk', false],
  ['args.n', 'gt', 'principal.dept', false],
];

describe('conditions are type-checked on load: an atom that can never match fails to load', () => {
  it.each(TABLE)('%s %s %j → loads: %s', (attr, op, operand, loads) => {
    const out = load({ attr, [op]: operand });
    if (loads) expect(out).toBe('ok');
    else expect(out).toMatch(/rule "r": field "when\.[a-zA-Z]+"/);
  });

  it('checks exists: an unknown attribute fails, `not exists` of an always-present one is a dead rule', () => {
    expect(load({ attr: 'args.opt', exists: true })).toBe('ok');
    expect(load({ not: { attr: 'args.opt', exists: true } })).toBe('ok');
    expect(load({ attr: 'args.nope', exists: true })).toMatch(/unknown attribute args\.nope/);
    expect(load({ not: { attr: 'args.s', exists: true } })).toMatch(
      /can never be true: args\.s is always present/,
    );
    expect(load({ not: { attr: 'principal.user', exists: true } })).toMatch(/can never be true/);
  });

  it('an unknown operator and a non-level string under an ordering fail even without a schema', () => {
    expect(() =>
      parsePolicyDocument(
        { version: 1, rules: [{ id: 'r', effect: 'deny', when: { attr: 'args.n', near: 3 } }] },
        'p.yaml',
      ),
    ).toThrow(/unknown condition key "near"/);
    expect(() =>
      parsePolicyDocument(
        { version: 1, rules: [{ id: 'r', effect: 'deny', when: { attr: 'args.n', gt: 'two hundred' } }] },
        'p.yaml',
      ),
    ).toThrow(/"gt" takes an integer, a level .* not "two hundred"/);
  });

  it('names file, line and field of the atom inside a nested condition', () => {
    const text = [
      'version: 1',
      'rules:',
      '  - id: refunds.cap',
      '    effect: deny',
      '    tools: [probe]',
      '    when:',
      '      all:',
      '        - { attr: principal.dept, equals: rd }',
      '        - any:',
      '            - { attr: args.s, equals: x }',
      '            - { attr: args.n, gt: 200 }',
    ].join('\n');
    let err: unknown;
    try {
      checkPolicyDocument(parsePolicyYaml(text, 'refunds.yaml'), SCHEMA);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PolicyConfigError);
    expect((err as PolicyConfigError).location).toEqual({
      file: 'refunds.yaml',
      rule: 'refunds.cap',
      field: 'when.all.1.any.1.gt',
      line: 11,
    });
  });

  it('checks rule scopes: unknown tools, categories, roles and tenants do not load', () => {
    const rule = (extra: Record<string, unknown>) => {
      try {
        checkPolicyDocument(
          parsePolicyDocument({ version: 1, rules: [{ id: 'r', effect: 'deny', ...extra }] }, 'p.yaml'),
          SCHEMA,
        );
        return 'ok';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(rule({ tools: ['probe'] })).toBe('ok');
    expect(rule({ tools: ['prob'] })).toMatch(/field "tools": unknown tool "prob"/);
    expect(rule({ categories: ['labs'] })).toMatch(/field "categories": unknown category "labs"/);
    expect(rule({ roles: ['stafff'] })).toMatch(/field "roles": unknown role "stafff"/);
    expect(rule({ tenants: ['t2'] })).toMatch(/field "tenants": unknown tenant "t2"/);
  });

  it('checks parameter constraints against the tool arguments they constrain', () => {
    const params = (tools: Record<string, unknown>) => {
      try {
        checkPolicyDocument(parsePolicyDocument({ version: 1, parameters: { tools } }, 'p.yaml'), SCHEMA);
        return 'ok';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(
      params({
        probe: { s: { date: { maxDaysAgo: 3 } }, n: { number: { max: 9 } }, e: { oneOf: ['open'] } },
      }),
    ).toBe('ok');
    expect(params({ probe: { s: { scope: { within: 'principal.depts' } } } })).toBe('ok');
    expect(params({ prob: { s: { date: { maxDaysAgo: 3 } } } })).toMatch(/unknown tool "prob"/);
    expect(params({ probe: { z: { date: { maxDaysAgo: 3 } } } })).toMatch(/probe takes no argument "z"/);
    expect(params({ probe: { n: { date: { maxDaysAgo: 3 } } } })).toMatch(
      /field "n.date": a date constraint needs a string/,
    );
    expect(params({ probe: { s: { number: { max: 3 } } } })).toMatch(/field "s.number"/);
    expect(params({ probe: { n: { number: { min: 9, max: 3 } } } })).toMatch(/min 9 is above max 3/);
    expect(params({ probe: { e: { oneOf: ['opne'] } } })).toMatch(/no listed value can ever be given/);
    expect(params({ probe: { s: { scope: { within: 'principal.nobody' } } } })).toMatch(
      /unknown attribute principal\.nobody/,
    );
    expect(params({ probe: { s: { scope: { within: 'principal.clearance' } } } })).toMatch(
      /a scope needs strings/,
    );
  });

  it('checks reviewers like policies: unknown tools and dead conditions do not load', () => {
    const reviewers = (r: Record<string, unknown>) => {
      try {
        const { value, locate } = parseYamlWithLines(
          JSON.stringify({ version: 1, reviewers: [{ id: 'rv', decision: 'deny', reason: 'why', ...r }] }),
          'reviewers.yaml',
        );
        parseReviewerDocument(value, 'reviewers.yaml', locate, SCHEMA);
        return 'ok';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(reviewers({ tools: ['probe'], when: { attr: 'args.n', gt: 50 } })).toBe('ok');
    expect(reviewers({ tools: ['prbe'] })).toMatch(/unknown tool "prbe"/);
    expect(reviewers({ tools: ['probe'], when: { attr: 'args.n', gt: 'fifty' } })).toMatch(/not "fifty"/);
    expect(reviewers({ tools: ['probe'], when: { attr: 'args.amount', gt: 50 } })).toMatch(
      /unknown attribute args\.amount/,
    );
  });
});

// ---- property: whatever loads can match some call ---------------------------------------------

type Atom = { attr: string; op: string; operand: unknown };

const ATTRS = [
  'args.s',
  'args.n',
  'args.b',
  'args.list',
  'args.nums',
  'args.e',
  'args.opt',
  'principal.dept',
  'principal.depts',
  'principal.clearance',
  'principal.dataLevel',
  'principal.roles',
  'tool.risk',
];
const LITERALS: unknown[] = [
  'x',
  'rd',
  'open',
  'opne',
  'staff',
  3,
  0,
  100,
  150,
  -1,
  true,
  false,
  ['a'],
  ['rd', 'qa'],
  ['open'],
  'L2',
  'high',
  'two hundred',
];
const OPS = ['equals', 'in', 'subsetOf', 'contains', 'lt', 'lte', 'gt', 'gte', 'exists'];

const atomArb: fc.Arbitrary<Atom> = fc.record({
  attr: fc.constantFrom(...ATTRS),
  op: fc.constantFrom(...OPS),
  operand: fc.oneof(fc.constantFrom(...LITERALS), fc.constantFrom(...ATTRS)),
});

const condArb: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  cond: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atomArb.map((a) =>
      a.op === 'exists' ? { attr: a.attr, exists: true } : { attr: a.attr, [a.op]: a.operand },
    ),
    fc.record({ not: tie('cond') }),
    fc.record({ all: fc.array(tie('cond'), { minLength: 1, maxLength: 2 }) }),
    fc.record({ any: fc.array(tie('cond'), { minLength: 1, maxLength: 2 }) }),
  ),
})).cond;

/**
 * Candidate values per attribute: the literals the generator uses, enum members, bounds, absent.
 * Directory attributes are typed, not enumerated (a user may join with a new department), so
 * their candidates include values of the other attributes.
 */
const STRINGS = [
  ...new Set([
    ...LITERALS.filter((v): v is string => typeof v === 'string'),
    'closed',
    'qa',
    'lead',
    'a',
    'zz',
  ]),
];
const LISTS = [[], ...STRINGS.map((v) => [v]), ['rd', 'qa'], ['x', 'a']];
const CANDIDATES: Record<string, unknown[]> = {
  'args.s': STRINGS,
  'args.n': [0, 3, 4, 10, 99, 100, 2],
  'args.b': [true, false],
  'args.list': LISTS,
  'args.nums': [[], ...LITERALS.filter((v) => typeof v === 'number').map((v) => [v])],
  'args.e': ['open', 'closed'],
  'args.opt': [...STRINGS, undefined],
  'principal.dept': [...STRINGS, undefined],
  'principal.depts': [...LISTS, undefined],
  'principal.clearance': [3, 0, 100, 150, -1, -5, 500, undefined],
  'principal.dataLevel': [1, 2, 3, 4],
  'principal.roles': [['staff'], ['lead'], ['staff', 'lead']],
  'tool.risk': [1, 2, 3, 4],
};

function attrsOf(c: unknown, out = new Set<string>()): Set<string> {
  const o = c as Record<string, unknown>;
  if ('all' in o) for (const x of o.all as unknown[]) attrsOf(x, out);
  else if ('any' in o) for (const x of o.any as unknown[]) attrsOf(x, out);
  else if ('not' in o) attrsOf(o.not, out);
  else {
    out.add(o.attr as string);
    for (const [k, v] of Object.entries(o))
      if (k !== 'attr' && typeof v === 'string' && v in CANDIDATES) out.add(v);
  }
  return out;
}

function satisfiable(cond: Condition, attrs: string[]): boolean {
  const test = compileCondition(cond);
  const assign = (i: number, env: Record<string, unknown>): boolean => {
    if (i === attrs.length) {
      const attributes: Record<string, never> = {};
      for (const k of ['dept', 'depts', 'clearance']) {
        const v = env[`principal.${k}`];
        if (v !== undefined) (attributes as Record<string, unknown>)[k] = v;
      }
      const level = (env['principal.dataLevel'] as number | undefined) ?? 1;
      const p = principalView({
        tenant: 't1',
        user: 'ann',
        roles: (env['principal.roles'] as string[] | undefined) ?? ['staff'],
        dataLevel: `L${level}` as Identity['dataLevel'],
        attributes,
      });
      const args: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(env))
        if (k.startsWith('args.') && v !== undefined) args[k.slice(5)] = v;
      const t = {
        name: 'probe',
        category: 'lab',
        risk: (env['tool.risk'] as number | undefined) ?? 1,
        dataLevel: 1,
        allowedRoles: ['staff'],
      };
      return test({ p, t, args });
    }
    const name = attrs[i] as string;
    for (const v of CANDIDATES[name] ?? [undefined]) if (assign(i + 1, { ...env, [name]: v })) return true;
    return false;
  };
  return assign(0, {});
}

/** Attribute occurrences (left sides and references) of a condition, with repeats. */
function occurrences(c: unknown, out: string[] = []): string[] {
  const o = c as Record<string, unknown>;
  if ('all' in o) for (const x of o.all as unknown[]) occurrences(x, out);
  else if ('any' in o) for (const x of o.any as unknown[]) occurrences(x, out);
  else if ('not' in o) occurrences(o.not, out);
  else {
    out.push(o.attr as string);
    for (const [k, v] of Object.entries(o))
      if (k !== 'attr' && typeof v === 'string' && v in CANDIDATES && v !== o.attr) out.push(v);
  }
  return out;
}

// Exact where atoms are independent: the load check judges atom by atom, so a contradiction
// between two atoms on one attribute (`x = a` and `not x = a`) loads (docs/policy.md says so).
const independent = condArb.filter((c) => {
  const o = occurrences(c);
  return new Set(o).size === o.length;
});

describe('property: a condition that loads can be true for some call', () => {
  it('holds for random conditions (independent atoms) over every attribute type', () => {
    let loaded = 0;
    fc.assert(
      fc.property(independent, (when) => {
        let doc: ReturnType<typeof parsePolicyDocument>;
        try {
          doc = parsePolicyDocument(
            { version: 1, rules: [{ id: 'r', effect: 'deny', tools: ['probe'], when }] },
            'p.yaml',
          );
          checkPolicyDocument(doc, SCHEMA);
        } catch (err) {
          if (err instanceof PolicyConfigError) return; // refused on load: fine
          throw err;
        }
        loaded++;
        const cond = doc.rules[0]?.when as Condition;
        expect(satisfiable(cond, [...attrsOf(when)])).toBe(true);
      }),
      { numRuns: 1500, seed: 1616 },
    );
    expect(loaded).toBeGreaterThan(50);
  });
});
