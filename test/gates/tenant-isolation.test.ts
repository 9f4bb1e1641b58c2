import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { OFFICE_TENANTS, type OfficeTenant, TENANT_PROFILES } from '../../examples/office/data/tenants.js';
import { createTools } from '../../examples/office/tools/index.js';
import type { Identity } from '../../src/core/index.js';
import type { ToolSpec } from '../../src/tools/index.js';

/**
 * Property: whatever a caller of tenant T passes — including the other tenant's customer names,
 * project names, record ids and a spoofed `tenant` field — no office tool returns or changes
 * another tenant's data. Tools are executed directly (below the gateway) so this checks the
 * data layer itself, not the policy in front of it.
 */
const dir = mkdtempSync(join(tmpdir(), 'twinline-tenant-iso-'));
const tools = createTools({ dataDir: join(dir, 'data') });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const other = (t: OfficeTenant): OfficeTenant => OFFICE_TENANTS.find((x) => x !== t)!;
const identity = (tenant: OfficeTenant): Identity => ({
  tenant,
  user: TENANT_PROFILES[tenant].staff[0]!.user,
  roles: ['employee', 'finance_analyst', 'hr_analyst', 'project_admin', 'project_owner', 'admin'],
  dataLevel: 'L4',
  attributes: { department: 'sales', region: 'east', projects: [...TENANT_PROFILES[tenant].projects] },
});

/** Arguments per tool, aimed at the OTHER tenant's entities wherever a name or id goes. */
function probeArgs(tool: string, victim: OfficeTenant, pick: number): Record<string, unknown> {
  const v = TENANT_PROFILES[victim];
  const customer = v.customers[pick % v.customers.length]!;
  const project = v.projects[pick % v.projects.length]!;
  const base: Record<string, Record<string, unknown>> = {
    calendar_list: { from: '2026-01-01', to: '2026-12-31' },
    calendar_reschedule: {
      eventId: `evt-000${(pick % 9) + 1}`,
      start: '2026-12-01T09:00:00Z',
      end: '2026-12-01T10:00:00Z',
    },
    calendar_cancel: { eventId: `evt-001${pick % 10}` },
    attendance_query: { from: '2026-11-02', to: '2026-11-06', department: 'sales' },
    sales_query: { from: '2026-01-01', to: '2026-12-31', region: 'east' },
    customer_lookup: { name: customer, region: 'east' },
    renewal_message_draft: { customer },
    ticket_create: { title: `probe ${victim}`, body: customer, priority: 'low' },
    doc_search: { query: `${customer} ${project} ${victim}`, limit: 20 },
    page_fetch: { url: 'https://docs.example.org/api/rate-limits' },
    billing_report_query: { period: '2026-11', project },
    salary_analysis: { departments: ['rd', 'sales'] },
    project_config_update: { project, key: 'max_seats', value: '7' },
    record_delete: { table: 'customers', id: `${victim}-c-00${(pick % 5) + 1}` },
  };
  // A spoofed tenant field must be stripped or rejected by the schema, never obeyed.
  return { ...(base[tool] ?? {}), tenant: victim };
}

async function run(tool: ToolSpec, args: Record<string, unknown>, who: Identity): Promise<string> {
  let parsed = tool.inputSchema.safeParse(args);
  if (!parsed.success) {
    const { tenant: _spoof, ...rest } = args;
    parsed = tool.inputSchema.safeParse(rest);
  }
  if (!parsed.success) return `schema-rejected`;
  try {
    const out = await tool.execute(parsed.data, {
      identity: who,
      sessionId: 'iso',
      callId: 'iso',
      signal: new AbortController().signal,
    });
    return JSON.stringify(out ?? null);
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
}

/** Strings that only the victim tenant's data contains. */
function victimMarkers(victim: OfficeTenant): string[] {
  const p = TENANT_PROFILES[victim];
  return [...p.customers, ...p.staff.map((s) => `"${s.user}"`), victim === 'globex' ? 'Globex' : 'Acme'];
}

describe('tenant isolation through every office tool', () => {
  it('covers every tool', () => {
    expect(tools.map((t) => t.name).sort()).toHaveLength(14);
  });

  it('property: no tool returns another tenant’s rows, whatever the arguments', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...OFFICE_TENANTS),
        fc.constantFrom(...tools.map((t) => t.name)),
        fc.nat(20),
        async (caller, toolName, pick) => {
          const victim = other(caller);
          const tool = tools.find((t) => t.name === toolName)!;
          const args = probeArgs(toolName, victim, pick);
          let out = await run(tool, args, identity(caller));
          // Values we passed in may be echoed back (e.g. an error naming the unknown customer);
          // only data the tool READ counts as a leak.
          for (const v of Object.values(args)) if (typeof v === 'string') out = out.split(v).join('<arg>');
          out = out.split(JSON.stringify(args).slice(1, -1)).join('<arg>');
          for (const marker of victimMarkers(victim)) {
            expect(
              out.includes(marker),
              `${caller} → ${toolName} leaked ${marker}: ${out.slice(0, 300)}`,
            ).toBe(false);
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it('writes in one tenant never change the other tenant’s rows with the same ids', async () => {
    const list = tools.find((t) => t.name === 'calendar_list')!;
    const before = await run(list, { from: '2026-01-01', to: '2026-12-31' }, identity('globex'));
    for (const name of ['calendar_reschedule', 'calendar_cancel', 'project_config_update', 'record_delete']) {
      const tool = tools.find((t) => t.name === name)!;
      for (let pick = 0; pick < 5; pick++) await run(tool, probeArgs(name, 'globex', pick), identity('acme'));
    }
    expect(await run(list, { from: '2026-01-01', to: '2026-12-31' }, identity('globex'))).toBe(before);
  });
});

describe('the isolation property can fail', () => {
  it('the same probes run AS the victim do return its data (so the markers are meaningful)', async () => {
    let leaks = 0;
    let executed = 0;
    for (const tool of tools) {
      const out = await run(tool, probeArgs(tool.name, 'globex', 1), identity('globex'));
      if (!out.startsWith('error') && out !== 'schema-rejected') executed++;
      const { tenant: _t, ...rest } = probeArgs(tool.name, 'globex', 1);
      let scrubbed = out;
      for (const v of Object.values(rest))
        if (typeof v === 'string') scrubbed = scrubbed.split(v).join('<arg>');
      if (victimMarkers('globex').some((m) => scrubbed.includes(m))) leaks++;
    }
    expect(executed).toBeGreaterThanOrEqual(10);
    expect(leaks).toBeGreaterThanOrEqual(2);
  });
});
