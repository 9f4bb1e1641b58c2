import { z } from 'zod';
import type { ToolSpec } from '../../../src/tools/index.js';
import { projectName, READ_ONLY, READ_TTL_MS } from './common.js';
import type { OfficeData } from './tenant-data.js';

/** Billing reports: high risk, runs only after review. */
export function financeTools(data: OfficeData): ToolSpec[] {
  const report: ToolSpec<{ period: string; project?: string | undefined }> = {
    name: 'billing_report_query',
    description: 'Billing amounts per project for a month (YYYY-MM), optionally for one project.',
    inputSchema: z.strictObject({
      period: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'a month such as 2026-11'),
      project: projectName.optional(),
    }),
    annotations: READ_ONLY,
    riskLevel: 'high',
    // Phrases that ask for billing as whole words (docs/policy.md, "Intent"): not 费用 alone
    // (费用报销 is an expense claim), not "bill" (Bill, billion, a bill in parliament).
    intentKeywords: ['账单', '计费', '费用报表', 'billing', 'invoice', 'invoices'],
    permissions: {
      allowedRoles: ['finance_analyst', 'project_owner'],
      requiredDataLevel: 'L3',
      category: 'finance',
    },
    requiresReview: true,
    timeoutMs: 5000,
    cacheTtlMs: READ_TTL_MS,
    kind: 'domain',
    dataScopes: ['finance'],
    fieldTags: { 'rows[].amount': 'finance.amount', total: 'finance.amount' },
    async execute(args, ctx) {
      const rows = data
        .forTenant(ctx.identity)
        .prepare(
          `SELECT project, amount, period FROM billing WHERE period = ?${args.project ? ' AND project = ?' : ''} ORDER BY project`,
        )
        .all(...(args.project ? [args.period, args.project] : [args.period])) as { amount: number }[];
      return { rows, total: rows.reduce((s, r) => s + r.amount, 0) };
    },
  };
  return [report];
}
