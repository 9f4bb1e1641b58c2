import fc from 'fast-check';
import type { DataLevel, Identity } from '../../src/core/index.js';
import type { ToolFacts } from '../../src/policy/index.js';
import type { RiskLevel } from '../../src/tools/index.js';

/** Small value pools so that equalities and memberships actually hit. */
export const USERS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'mallory', 'gina', 'hank'];
export const ROLES = [
  'employee',
  'sales_manager',
  'finance_analyst',
  'project_admin',
  'hr_analyst',
  'project_owner',
];
export const TENANTS = ['acme', 'globex'];
export const DEPARTMENTS = ['sales', 'rd', 'finance', 'hr', 'ops'];
export const REGIONS = ['east', 'west', 'north', 'south'];
export const PROJECTS = ['phoenix', 'atlas', 'hermes'];
export const CATEGORIES = [
  'calendar',
  'attendance',
  'crm',
  'sales',
  'finance',
  'hr',
  'projects',
  'records',
  'docs',
];
export const TOOL_NAMES = [
  'calendar_list',
  'attendance_query',
  'sales_query',
  'billing_report_query',
  'salary_analysis',
  'project_config_update',
  'record_delete',
  'doc_search',
];
const LEVELS: DataLevel[] = ['L1', 'L2', 'L3', 'L4'];
const RISKS: RiskLevel[] = ['low', 'medium', 'high', 'critical'];
const STRINGS = [...USERS, ...DEPARTMENTS, ...REGIONS, ...PROJECTS, ...TENANTS, 'all'];

const subset = <T>(xs: readonly T[], max = xs.length) => fc.subarray([...xs], { maxLength: max });

export const identityArb: fc.Arbitrary<Identity> = fc
  .record(
    {
      tenant: fc.constantFrom(...TENANTS),
      user: fc.constantFrom(...USERS),
      roles: subset(ROLES, 3),
      dataLevel: fc.constantFrom(...LEVELS),
      department: fc.option(fc.constantFrom(...DEPARTMENTS), { nil: undefined }),
      region: fc.option(fc.constantFrom(...REGIONS), { nil: undefined }),
      projects: fc.option(subset(PROJECTS), { nil: undefined }),
      departments: fc.option(subset(DEPARTMENTS), { nil: undefined }),
    },
    { requiredKeys: ['tenant', 'user', 'roles', 'dataLevel'] },
  )
  .map(({ tenant, user, roles, dataLevel, ...attrs }) => ({
    tenant,
    user,
    roles,
    dataLevel,
    attributes: Object.fromEntries(
      Object.entries(attrs).filter(([, v]) => v !== undefined),
    ) as Identity['attributes'],
  }));

export const toolArb: fc.Arbitrary<ToolFacts> = fc.record({
  name: fc.constantFrom(...TOOL_NAMES),
  category: fc.constantFrom(...CATEGORIES),
  riskLevel: fc.constantFrom(...RISKS),
  requiredDataLevel: fc.constantFrom(...LEVELS),
  allowedRoles: subset(ROLES),
});

/** Arguments typed per key (the schema stage guarantees types before policy runs). */
export const argsArb = fc.record(
  {
    user: fc.constantFrom(...USERS),
    rep: fc.constantFrom(...USERS),
    region: fc.constantFrom(...REGIONS),
    department: fc.constantFrom(...DEPARTMENTS, 'all'),
    departments: subset([...DEPARTMENTS, 'all']),
    project: fc.constantFrom(...PROJECTS),
    tenant: fc.constantFrom(...TENANTS),
    amount: fc.integer({ min: -5, max: 20_000 }),
    // role claims in arguments must never matter
    role: fc.constantFrom(...ROLES),
    roles: subset(ROLES),
  },
  { requiredKeys: [] },
);

const STRING_ATTRS = [
  'principal.user',
  'principal.tenant',
  'principal.department',
  'principal.region',
  'tool.name',
  'tool.category',
  'args.user',
  'args.rep',
  'args.region',
  'args.department',
  'args.project',
  'args.tenant',
];
const SET_ATTRS = [
  'principal.roles',
  'principal.projects',
  'principal.departments',
  'tool.allowedRoles',
  'args.departments',
];
const NUM_ATTRS = ['principal.dataLevel', 'tool.risk', 'tool.dataLevel', 'args.amount'];
const ALL_ATTRS = [...STRING_ATTRS, ...SET_ATTRS, ...NUM_ATTRS];

const strLit = fc.constantFrom(...STRINGS, ...ROLES);
const listLit = subset([...STRINGS, ...ROLES], 4);
const numLit = fc.oneof(
  fc.integer({ min: 0, max: 5 }),
  fc.constantFrom('L1', 'L2', 'L3', 'L4', 'low', 'high', 'critical'),
);

/** A typed atom in the YAML form. */
const atomArb: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ attr: fc.constantFrom(...ALL_ATTRS), exists: fc.constant(true) }),
  fc.record({
    attr: fc.constantFrom(...STRING_ATTRS),
    equals: fc.oneof(strLit, fc.constantFrom(...STRING_ATTRS)),
  }),
  fc.record({
    attr: fc.constantFrom(...SET_ATTRS),
    equals: fc.oneof(listLit, fc.constantFrom(...SET_ATTRS)),
  }),
  fc.record({ attr: fc.constantFrom(...STRING_ATTRS), in: fc.oneof(listLit, fc.constantFrom(...SET_ATTRS)) }),
  fc.record({
    attr: fc.constantFrom(...SET_ATTRS),
    subsetOf: fc.oneof(listLit, fc.constantFrom(...SET_ATTRS)),
  }),
  fc.record({ attr: fc.constantFrom(...SET_ATTRS), contains: strLit }),
  fc
    .tuple(
      fc.constantFrom(...NUM_ATTRS),
      fc.constantFrom('lte', 'gte', 'lt', 'gt'),
      fc.oneof(numLit, fc.constantFrom(...NUM_ATTRS)),
    )
    .map(([attr, op, v]) => ({ attr, [op]: v })),
);

export const conditionArb: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ c: Record<string, unknown> }>(
  (tie) => ({
    c: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      atomArb,
      fc.record({ all: fc.array(tie('c'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ any: fc.array(tie('c'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ not: tie('c') }),
    ),
  }),
).c;

/** A random policy document in its YAML form. */
export const documentArb = fc
  .array(
    fc.record(
      {
        effect: fc.constantFrom('allow', 'deny'),
        roles: subset(ROLES, 2).filter((r) => r.length > 0),
        tenants: subset(TENANTS, 1).filter((r) => r.length > 0),
        tools: subset(TOOL_NAMES, 2).filter((r) => r.length > 0),
        categories: subset(CATEGORIES, 2).filter((r) => r.length > 0),
        when: conditionArb,
      },
      { requiredKeys: ['effect'] },
    ),
    { maxLength: 12 },
  )
  .chain((rules) =>
    fc.record({
      version: fc.constant(1),
      grants: fc.dictionary(
        fc.constantFrom(...ROLES),
        fc.subarray(CATEGORIES, { minLength: 1, maxLength: 4 }),
      ),
      rules: fc.constant(
        rules
          .map((r, i) => ({ id: `r${i}`, ...r }))
          .map((r) => (r.effect === 'allow' && !r.roles && !r.when ? { ...r, roles: ['employee'] } : r)),
      ),
    }),
  );
