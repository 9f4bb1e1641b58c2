import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createTools } from '../../examples/office/tools/index.js';
import { type ToolFacts, toolFacts } from '../../src/policy/index.js';
import { officeDocument, officeEngine, who } from './office.js';

const tools = new Map<string, ToolFacts>(
  createTools({ dataDir: '/nonexistent' }).map((t) => [t.name, toolFacts(t)]),
);
const facts = (name: string) => {
  const f = tools.get(name);
  if (!f) throw new Error(`no office tool ${name}`);
  return f;
};

// user, tenant, tool, args, expected effect, expected rule
const TABLE: [string, string, string, Record<string, unknown>, 'allow' | 'deny', string][] = [
  [
    'alice',
    'acme',
    'attendance_query',
    { from: '2026-11-01', to: '2026-11-07', user: 'alice' },
    'allow',
    'grant.employee',
  ],
  [
    'alice',
    'acme',
    'attendance_query',
    { from: '2026-11-01', to: '2026-11-07', user: 'bob' },
    'deny',
    'attendance.employee-self-only',
  ],
  [
    'alice',
    'acme',
    'attendance_query',
    { from: '2026-11-01', to: '2026-11-07', department: 'sales' },
    'deny',
    'attendance.employee-self-only',
  ],
  [
    'erin',
    'acme',
    'attendance_query',
    { from: '2026-11-01', to: '2026-11-07', department: 'rd' },
    'allow',
    'grant.hr_analyst',
  ],
  [
    'erin',
    'acme',
    'attendance_query',
    { from: '2026-11-01', to: '2026-11-07', department: 'sales' },
    'deny',
    'attendance.hr-own-departments',
  ],
  ['erin', 'acme', 'salary_analysis', { departments: ['rd'] }, 'allow', 'grant.hr_analyst'],
  ['erin', 'acme', 'salary_analysis', { departments: ['all'] }, 'allow', 'grant.hr_analyst'],
  ['erin', 'acme', 'salary_analysis', { departments: ['sales'] }, 'deny', 'salary.own-departments'],
  [
    'bob',
    'acme',
    'sales_query',
    { from: '2026-11-01', to: '2026-11-07', region: 'east' },
    'allow',
    'grant.sales_manager',
  ],
  [
    'bob',
    'acme',
    'sales_query',
    { from: '2026-11-01', to: '2026-11-07', region: 'west' },
    'deny',
    'sales.manager-own-region',
  ],
  [
    'bob',
    'acme',
    'sales_query',
    { from: '2026-11-01', to: '2026-11-07' },
    'deny',
    'sales.manager-own-region',
  ],
  [
    'carol',
    'acme',
    'sales_query',
    { from: '2026-11-01', to: '2026-11-07' },
    'allow',
    'grant.finance_analyst',
  ],
  ['bob', 'acme', 'customer_lookup', { region: 'east' }, 'allow', 'grant.sales_manager'],
  ['bob', 'acme', 'customer_lookup', { region: 'west' }, 'deny', 'crm.manager-own-region'],
  // No region asked for: allowed here, and the tool itself returns only the east region's rows.
  ['bob', 'acme', 'customer_lookup', { name: 'Acme' }, 'allow', 'grant.sales_manager'],
  ['carol', 'acme', 'billing_report_query', { period: '2026-10' }, 'allow', 'grant.finance_analyst'],
  [
    'frank',
    'acme',
    'billing_report_query',
    { period: '2026-10', project: 'atlas' },
    'allow',
    'grant.project_owner',
  ],
  [
    'frank',
    'acme',
    'billing_report_query',
    { period: '2026-10', project: 'phoenix' },
    'deny',
    'billing.owner-own-projects',
  ],
  ['frank', 'acme', 'billing_report_query', { period: '2026-10' }, 'deny', 'billing.owner-own-projects'],
  [
    'dave',
    'acme',
    'project_config_update',
    { project: 'phoenix', key: 'k', value: 'v' },
    'allow',
    'grant.project_admin',
  ],
  [
    'dave',
    'acme',
    'project_config_update',
    { project: 'atlas', key: 'k', value: 'v' },
    'deny',
    'projects.admin-own-projects',
  ],
  [
    'mallory',
    'acme',
    'project_config_update',
    { project: 'phoenix', key: 'k', value: 'v' },
    'deny',
    'manifest.allowed-roles',
  ],
  ['alice', 'acme', 'billing_report_query', { period: '2026-10' }, 'deny', 'manifest.allowed-roles'],
  ['alice', 'acme', 'customer_lookup', { name: 'x' }, 'deny', 'manifest.data-level'],
  ['dave', 'acme', 'record_delete', { id: 'x' }, 'deny', 'manifest.allowed-roles'],
  ['hank', 'globex', 'calendar_list', { from: '2026-11-01', to: '2026-11-07' }, 'allow', 'grant.employee'],
  ['gina', 'globex', 'billing_report_query', { period: '2026-10' }, 'allow', 'grant.finance_analyst'],
  [
    'dave',
    'acme',
    'attendance_query',
    { from: '2026-11-01', to: '2026-11-07', user: 'dave' },
    'deny',
    'manifest.allowed-roles',
  ],
  ['carol', 'acme', 'page_fetch', { url: 'https://example.com' }, 'allow', 'grant.finance_analyst'],
];

describe('office policy (RBAC + ABAC), every decision names its rule', () => {
  it.each(TABLE)('%s@%s %s %j → %s by %s', (user, tenant, tool, args, effect, ruleId) => {
    expect(officeEngine.decide(who(user, tenant), facts(tool), args)).toMatchObject({ effect, ruleId });
  });

  it('grants match roles.yaml (one source of truth for categories)', () => {
    const roles = parse(readFileSync('examples/office/roles.yaml', 'utf8')).roles as Record<
      string,
      { categories: string[] }
    >;
    for (const [role, { categories }] of Object.entries(roles)) {
      const grant = officeDocument.rules.find((r) => r.id === `grant.${role}`);
      expect(new Set(grant?.categories)).toEqual(new Set(categories));
    }
  });

  it('a tool no rule grants is default-denied', () => {
    const odd: ToolFacts = { ...facts('calendar_list'), name: 'new_tool', category: 'unknown' };
    expect(officeEngine.decide(who('alice', 'acme'), odd, {})).toMatchObject({
      effect: 'deny',
      ruleId: 'policy.default-deny',
    });
  });
});
