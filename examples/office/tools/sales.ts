import { z } from 'zod';
import type { ToolSpec } from '../../../src/tools/index.js';
import { isoDate, READ_ONLY, READ_TTL_MS, region, userName } from './common.js';
import type { OfficeData } from './tenant-data.js';

/** Sales deals of the caller's tenant. */
export function salesTools(data: OfficeData): ToolSpec[] {
  const query: ToolSpec<{ from: string; to: string; region?: string | undefined; rep?: string | undefined }> =
    {
      name: 'sales_query',
      description: 'Sales deals between two dates, optionally by region or sales rep, with their total.',
      inputSchema: z.strictObject({
        from: isoDate,
        to: isoDate,
        region: region.optional(),
        rep: userName.optional(),
      }),
      annotations: READ_ONLY,
      riskLevel: 'low',
      permissions: {
        allowedRoles: ['employee', 'sales_manager', 'finance_analyst'],
        requiredDataLevel: 'L2',
        category: 'sales',
      },
      requiresReview: false,
      timeoutMs: 5000,
      cacheTtlMs: READ_TTL_MS,
      kind: 'domain',
      dataScopes: ['sales'],
      fieldTags: { 'rows[].amount': 'finance.amount', total: 'finance.amount' },
      async execute(args, ctx) {
        const where = ['date BETWEEN ? AND ?'];
        const params: unknown[] = [args.from, args.to];
        if (args.region) {
          where.push('region = ?');
          params.push(args.region);
        }
        if (args.rep) {
          where.push('rep = ?');
          params.push(args.rep);
        }
        const rows = data
          .forTenant(ctx.identity)
          .prepare(
            `SELECT region, rep, amount, date, customer FROM sales WHERE ${where.join(' AND ')} ORDER BY date`,
          )
          .all(...params) as { amount: number }[];
        return { rows, total: rows.reduce((s, r) => s + r.amount, 0) };
      },
    };
  return [query];
}
