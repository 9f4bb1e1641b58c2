import fc from 'fast-check';
import type { StageDecision } from '../../src/core/index.js';
import { isoDay, RECENT } from '../support/recent-dates.js';

/** Office users of both tenants, reviewers included. */
export const USERS: readonly (readonly [tenant: string, user: string])[] = [
  ['acme', 'alice'],
  ['acme', 'bob'],
  ['acme', 'carol'],
  ['acme', 'dave'],
  ['acme', 'erin'],
  ['acme', 'frank'],
  ['acme', 'mallory'],
  ['acme', 'rita'],
  ['globex', 'gina'],
  ['globex', 'hank'],
];

const TOMORROW_9 = `${isoDay(1)}T09:00:00Z`;
const TOMORROW_10 = `${isoDay(1)}T10:00:00Z`;

/**
 * Arguments per office tool: valid ones, out-of-scope ones (another user, region, department,
 * project), stale dates, and schema-invalid ones. `page_fetch` only gets arguments the schema
 * refuses: nothing here may reach the network.
 */
export const ARGS: Readonly<Record<string, readonly unknown[]>> = {
  calendar_list: [RECENT, { ...RECENT, attendee: 'bob' }, { from: 'last week', to: RECENT.to }],
  calendar_reschedule: [
    { eventId: 'evt-0001', start: TOMORROW_9, end: TOMORROW_10 },
    { eventId: 'evt-0002', start: TOMORROW_10, end: TOMORROW_9 },
    { eventId: 'evt-0003', start: '2020-01-01T09:00:00Z', end: '2020-01-01T10:00:00Z' },
  ],
  calendar_cancel: [{ eventId: 'evt-0004' }, { eventId: 'meeting-4' }],
  attendance_query: [
    { from: isoDay(-7), to: isoDay(0) },
    { from: isoDay(-7), to: isoDay(0), user: 'bob' },
    { from: isoDay(-7), to: isoDay(0), department: 'rd' },
    { from: isoDay(-90), to: isoDay(0) },
  ],
  customer_lookup: [{ region: 'east' }, { region: 'west' }, { name: 'a'.repeat(200) }],
  renewal_message_draft: [{ customer: 'acme-c-001' }, { customer: 'Northwind' }],
  sales_query: [
    { ...RECENT, region: 'east' },
    { ...RECENT, region: 'west' },
    { from: isoDay(-300), to: isoDay(0) },
  ],
  billing_report_query: [
    { period: isoDay(-20).slice(0, 7), project: 'atlas' },
    { period: isoDay(-20).slice(0, 7), project: 'phoenix' },
    { period: isoDay(-20).slice(0, 7) },
    { period: 'last month' },
  ],
  salary_analysis: [{ departments: ['rd'] }, { departments: ['all'] }, { departments: [] }],
  project_config_update: [
    { project: 'phoenix', key: 'deploy.region', value: 'eu' },
    { project: 'atlas', key: 'deploy.region', value: 'us' },
  ],
  record_delete: [{ table: 'customers', id: 'acme-c-001' }],
  ticket_create: [
    { title: 'Printer broken', body: 'Third floor.' },
    { title: 'x', body: '' },
  ],
  doc_search: [{ query: 'vendor onboarding', limit: 2 }, { query: '' }],
  page_fetch: [{ url: 'http://example.com/' }, { url: 'not a url' }],
};

export const TOOLS = Object.keys(ARGS);

/** Requests whose own words declare (or fail to declare) high-risk tools. */
export const REQUESTS = [
  'go',
  '分析 atlas 项目的账单并生成报告',
  'show me the billing report for this month',
  'analyse salaries in rd',
  '把 phoenix 的部署配置改一下',
  'delete that customer record',
  'we plan for a billion requests',
];

export interface DoorCase {
  readonly tenant: string;
  readonly user: string;
  readonly tool: string;
  readonly args: unknown;
  readonly request: string;
}

/** Users who hold the roles of a tool: where policy, parameters, intent and review get their say. */
const ENTITLED: readonly (readonly [tenant: string, user: string, tool: string, request: string])[] = [
  ['acme', 'carol', 'billing_report_query', 'show me the billing report for this month'],
  ['acme', 'frank', 'billing_report_query', '分析 atlas 项目的账单并生成报告'],
  ['globex', 'gina', 'billing_report_query', 'show me the billing report for this month'],
  ['acme', 'erin', 'salary_analysis', 'analyse salaries in rd'],
  ['acme', 'dave', 'project_config_update', '把 phoenix 的部署配置改一下'],
  ['acme', 'bob', 'sales_query', 'go'],
  ['acme', 'bob', 'customer_lookup', 'go'],
  ['acme', 'alice', 'attendance_query', 'go'],
];

/** An entitled user's call, with the request that declares it or with one that does not. */
export const entitledCase: fc.Arbitrary<DoorCase> = fc
  .record({
    e: fc.constantFrom(...ENTITLED),
    pick: fc.nat(),
    declares: fc.boolean(),
    other: fc.constantFrom(...REQUESTS),
  })
  .map(({ e, pick, declares, other }) => {
    const pool = ARGS[e[2]]!;
    return {
      tenant: e[0],
      user: e[1],
      tool: e[2],
      args: pool[pick % pool.length],
      request: declares ? e[3] : other,
    };
  });

const anyCase: fc.Arbitrary<DoorCase> = fc
  .record({
    who: fc.constantFrom(...USERS),
    tool: fc.constantFrom(...TOOLS),
    pick: fc.nat(),
    request: fc.constantFrom(...REQUESTS),
  })
  .map(({ who, tool, pick, request }) => {
    const pool = ARGS[tool]!;
    return { tenant: who[0], user: who[1], tool, args: pool[pick % pool.length], request };
  });

/** Any user, tool, arguments and request, half of them entitled ones. */
export const doorCase: fc.Arbitrary<DoorCase> = fc.oneof(anyCase, entitledCase);

/** A decision path as the doors are compared on it: the stages a dry run has, in order. */
export function comparable(path: readonly StageDecision[]): string[] {
  const out: string[] = [];
  for (const d of path) {
    // Limits and breakers are off in a dry run, and so are the host's hooks (no host is attached;
    // with none registered the engine's slot says `hook.none`); an approver's answer follows the
    // ask it answers.
    if (d.stage === 'resilience' || d.stage === 'breaker') continue;
    if (d.stage === 'hooks' && d.ruleId === 'hook.none') continue;
    if (d.ruleId.startsWith('approval.') && d.stage === 'approval' && out.at(-1)?.includes(':ask:')) break;
    out.push(`${d.stage}:${d.verdict}:${d.ruleId}`);
    if (d.verdict !== 'allow') break;
  }
  return out;
}
