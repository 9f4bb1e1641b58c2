import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTenantData } from '../../examples/office/data/generate.js';
import { createTools } from '../../examples/office/tools/index.js';
import { loadOfficeDomain } from '../../src/config/index.js';
import type { Identity } from '../../src/core/index.js';
import { type CallContext, ToolGateway } from '../../src/gateway/index.js';
import { IdentityDirectory } from '../../src/runtime/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { ToolRegistry } from '../../src/tools/index.js';

const dir = mkdtempSync(join(tmpdir(), 'twinline-office-'));
const registry = new ToolRegistry().registerAll(createTools({ dataDir: join(dir, 'data') }));
const people = new IdentityDirectory(loadOfficeDomain().users);
let store: Store;
let gateway: ToolGateway;
let n = 0;

beforeAll(async () => {
  store = await openStore({ sqliteFile: join(dir, 'store.sqlite'), env: {} });
  gateway = new ToolGateway({ tools: registry, audit: store.audit, reviews: store.reviews });
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const ctx = (identity: Identity): CallContext => ({ identity, sessionId: 'office-test' });
const invoke = (user: string, tenant: string, tool: string, args: unknown) =>
  gateway.invoke({ id: `o-${++n}`, name: tool, arguments: args }, ctx(people.resolve(user, tenant)));

/** Runs an approved review to completion, as a reviewer would. */
async function approveAndRun(reviewId: string) {
  const review = (await store.reviews.get(reviewId))!;
  await store.reviews.decide(reviewId, { decision: 'approved', by: 'reviewer' });
  return gateway.executeApprovedReview(review, { identity: review.identity });
}

describe('office domain manifests', () => {
  const expected: [string, string, string, boolean, string[], string][] = [
    ['calendar_list', 'low', 'calendar', false, [], 'L1'],
    ['calendar_reschedule', 'medium', 'calendar', false, [], 'L1'],
    ['calendar_cancel', 'medium', 'calendar', false, [], 'L1'],
    ['attendance_query', 'low', 'attendance', false, [], 'L1'],
    ['sales_query', 'low', 'sales', false, [], 'L2'],
    ['customer_lookup', 'medium', 'crm', false, [], 'L2'],
    ['renewal_message_draft', 'low', 'crm', false, [], 'L1'],
    ['ticket_create', 'medium', 'tickets', false, [], 'L1'],
    ['doc_search', 'low', 'docs', false, [], 'L1'],
    ['page_fetch', 'low', 'web', false, [], 'L1'],
    ['billing_report_query', 'high', 'finance', true, ['finance_analyst', 'project_owner'], 'L3'],
    ['salary_analysis', 'high', 'hr', true, ['hr_analyst'], 'L3'],
    ['project_config_update', 'high', 'projects', true, ['project_admin'], 'L3'],
    ['record_delete', 'critical', 'records', true, [], 'L4'],
  ];

  it('registers exactly the office tools', () => {
    expect(registry.list().map((t) => t.name)).toEqual(expected.map((e) => e[0]));
  });

  it.each(expected)('%s: risk %s, category %s, review %s', (name, risk, category, review, roles, level) => {
    const t = registry.get(name)!;
    expect(t.riskLevel).toBe(risk);
    expect(t.permissions.category).toBe(category);
    expect(t.requiresReview).toBe(review);
    expect(t.kind).toBe('domain');
    expect(t.dataScopes?.length).toBeGreaterThan(0);
    if (roles.length || name === 'record_delete') expect(t.permissions.allowedRoles).toEqual(roles);
    if (name !== 'record_delete') expect(t.permissions.requiredDataLevel).toBe(level);
    if (t.annotations.readOnly && name !== 'renewal_message_draft') expect(t.cacheTtlMs).toBe(300_000);
    if (!t.annotations.readOnly) expect(t.cacheTtlMs).toBeUndefined();
  });

  it('declares sensitive and third-party fields', () => {
    expect(registry.get('customer_lookup')!.fieldTags).toMatchObject({
      'customers[].phone': 'pii.phone',
      'customers[].email': 'pii.email',
    });
    expect(registry.get('salary_analysis')!.fieldTags).toMatchObject({ amounts: 'hr.salary' });
    expect(registry.get('doc_search')!.thirdPartyFields).toEqual(['documents[].body']);
    expect(registry.get('page_fetch')!.thirdPartyFields).toEqual(['body']);
    expect(registry.get('project_config_update')!.annotations.destructive).toBe(true);
  });
});

describe('office data', () => {
  it('is generated deterministically, one file per tenant', () => {
    const a = ensureTenantData(join(dir, 'gen-a'), 'acme');
    const b = ensureTenantData(join(dir, 'gen-b'), 'acme');
    const g = ensureTenantData(join(dir, 'gen-a'), 'globex');
    const dump = (file: string) => {
      const db = new Database(file, { readonly: true });
      const tables = [
        'events',
        'attendance',
        'sales',
        'customers',
        'billing',
        'salaries',
        'project_configs',
        'documents',
      ];
      const out = tables.map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all());
      db.close();
      return JSON.stringify(out);
    };
    expect(dump(a)).toBe(dump(b));
    expect(dump(a)).not.toBe(dump(g));
    expect(() => ensureTenantData(join(dir, 'gen-a'), '../acme')).toThrow(/unknown office tenant/);
  });

  it('customers have Chinese mobile numbers; some documents carry injected instructions', async () => {
    const r = await invoke('bob', 'acme', 'customer_lookup', {});
    const customers = (r.output as { customers: { phone: string; email: string }[] }).customers;
    expect(customers.length).toBeGreaterThan(3);
    for (const c of customers) expect(c.phone).toMatch(/^1[3-9]\d{9}$/);
    const docs = await invoke('alice', 'acme', 'doc_search', {
      query: 'assistant agents instructions',
      limit: 20,
    });
    expect(docs.status).toBe('executed');
    const bodies = (docs.output as { documents: { body: string }[] }).documents.map((d) => d.body).join('\n');
    expect(bodies).toMatch(/record_delete|salary_analysis|project_config_update/);
  });
});

describe('office tools through the gateway', () => {
  it('runs every low/medium tool for an allowed user', async () => {
    const cases: [string, string, string, unknown][] = [
      ['alice', 'acme', 'calendar_list', { from: '2026-11-01', to: '2026-12-31' }],
      ['alice', 'acme', 'attendance_query', { from: '2026-11-02', to: '2026-11-06', department: 'sales' }],
      ['bob', 'acme', 'sales_query', { from: '2026-07-01', to: '2026-12-31', region: 'east' }],
      ['bob', 'acme', 'customer_lookup', { region: 'east' }],
      ['bob', 'acme', 'renewal_message_draft', { customer: 'Acme Client Hailan Logistics' }],
      ['alice', 'acme', 'ticket_create', { title: 'Printer jam', body: 'Floor 3 printer', priority: 'low' }],
      ['alice', 'acme', 'doc_search', { query: 'policy' }],
      ['alice', 'acme', 'page_fetch', { url: 'https://docs.example.org/api/rate-limits' }],
      [
        'alice',
        'acme',
        'calendar_reschedule',
        { eventId: 'evt-0002', start: '2026-12-01T09:00:00Z', end: '2026-12-01T10:00:00Z' },
      ],
      // alice organises evt-0001 (the first person invited organised it).
      ['alice', 'acme', 'calendar_cancel', { eventId: 'evt-0001' }],
    ];
    for (const [user, tenant, tool, args] of cases) {
      const r = await invoke(user, tenant, tool, args);
      expect({ tool, status: r.status, error: r.error }).toEqual({
        tool,
        status: 'executed',
        error: undefined,
      });
    }
  });

  it('refuses what the manifests forbid', async () => {
    expect(
      (await invoke('alice', 'acme', 'sales_query', { from: '2026-07-01', to: '2026-12-31' })).decision
        .ruleId,
    ).toBe('rbac.data-level');
    expect(
      (await invoke('mallory', 'acme', 'salary_analysis', { departments: ['all'] })).decision.ruleId,
    ).toBe('rbac.role-not-allowed');
    expect(
      (await invoke('dave', 'acme', 'record_delete', { table: 'customers', id: 'acme-c-001' })).status,
    ).toBe('denied');
    expect(
      (await invoke('alice', 'acme', 'calendar_list', { from: '30/11/2026', to: '2026-12-01' })).decision,
    ).toMatchObject({
      stage: 'schema',
    });
    expect(
      (await invoke('alice', 'acme', 'page_fetch', { url: 'http://docs.example.org/' })).decision.stage,
    ).toBe('schema');
    const missing = await invoke('alice', 'acme', 'page_fetch', { url: 'https://unknown.example.com/' });
    expect(missing.status).toBe('failed');
  });

  it('high-risk tools run only after review, as the original identity', async () => {
    const queued = await invoke('erin', 'acme', 'salary_analysis', { departments: ['rd'] });
    expect(queued.status).toBe('review');
    const run = await approveAndRun(queued.reviewId!);
    expect(run.status).toBe('executed');
    const out = run.output as { summary: { department: string }[]; amounts: unknown[] };
    expect(out.summary.map((s) => s.department)).toEqual(['rd']);

    const cfg = await invoke('dave', 'acme', 'project_config_update', {
      project: 'phoenix',
      key: 'max_seats',
      value: '42',
    });
    expect(cfg.status).toBe('review');
    const applied = await approveAndRun(cfg.reviewId!);
    expect(applied.output).toMatchObject({ project: 'phoenix', key: 'max_seats', value: '42' });
  });

  it('never returns another tenant’s rows', async () => {
    const reads: [string, unknown][] = [
      ['calendar_list', { from: '2026-11-01', to: '2026-12-31' }],
      ['doc_search', { query: 'policy onboarding release', limit: 20 }],
      ['ticket_create', { title: 'Isolation probe', body: 'x' }],
    ];
    for (const [tool, args] of reads) {
      const acme = JSON.stringify((await invoke('alice', 'acme', tool, args)).output);
      const globex = JSON.stringify((await invoke('hank', 'globex', tool, args)).output);
      expect(acme).not.toMatch(/globex/i);
      expect(globex).not.toMatch(/acme/i);
    }
    const acmeBill = await approveAndRun(
      (await invoke('carol', 'acme', 'billing_report_query', { period: '2026-11' })).reviewId!,
    );
    const globexBill = await approveAndRun(
      (await invoke('gina', 'globex', 'billing_report_query', { period: '2026-11' })).reviewId!,
    );
    const acmeProjects = (acmeBill.output as { rows: { project: string }[] }).rows.map((r) => r.project);
    const globexProjects = (globexBill.output as { rows: { project: string }[] }).rows.map((r) => r.project);
    expect(acmeProjects.sort()).toEqual(['atlas', 'hermes', 'phoenix']);
    expect(globexProjects.sort()).toEqual(['orion', 'vega']);

    // A write in one tenant leaves the other's same-id row untouched.
    const before = (await invoke('hank', 'globex', 'calendar_list', { from: '2026-11-01', to: '2026-12-31' }))
      .output as {
      events: { id: string; start: string }[];
    };
    expect(before.events.some((e) => e.id === 'evt-0010')).toBe(true);
    await invoke('alice', 'acme', 'calendar_reschedule', {
      eventId: 'evt-0010',
      start: '2026-12-24T08:00:00Z',
      end: '2026-12-24T09:00:00Z',
    });
    const after = (await invoke('hank', 'globex', 'calendar_list', { from: '2026-11-01', to: '2026-12-31' }))
      .output as {
      events: { id: string; start: string }[];
    };
    expect(after.events.find((e) => e.id === 'evt-0010')).toEqual(
      before.events.find((e) => e.id === 'evt-0010'),
    );
  });
});
