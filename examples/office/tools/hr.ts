import { z } from 'zod';
import type { ToolSpec } from '../../../src/tools/index.js';
import { READ_ONLY, READ_TTL_MS } from './common.js';
import type { OfficeData } from './tenant-data.js';

const departmentOrAll = z.enum(['sales', 'rd', 'finance', 'hr', 'ops', 'all']);

/** Salary analysis: high risk, hr_analyst only, runs only after review. */
export function hrTools(data: OfficeData): ToolSpec[] {
  const analysis: ToolSpec<{ departments: string[] }> = {
    name: 'salary_analysis',
    description: 'Salary statistics per department ("all" for every department) and the underlying amounts.',
    inputSchema: z.strictObject({ departments: z.array(departmentOrAll).min(1).max(6) }),
    annotations: READ_ONLY,
    riskLevel: 'high',
    intentKeywords: ['薪酬', '薪资', '工资', '薪水', 'salary', 'salaries', 'payroll', 'compensation'],
    permissions: { allowedRoles: ['hr_analyst'], requiredDataLevel: 'L3', category: 'hr' },
    requiresReview: true,
    timeoutMs: 5000,
    cacheTtlMs: READ_TTL_MS,
    kind: 'domain',
    dataScopes: ['hr'],
    fieldTags: { amounts: 'hr.salary', 'summary[].average': 'hr.salary' },
    async execute(args, ctx) {
      const all = data
        .forTenant(ctx.identity)
        .prepare('SELECT user, department, amount FROM salaries ORDER BY department, user')
        .all() as { user: string; department: string; amount: number }[];
      const wanted = args.departments.includes('all') ? undefined : new Set(args.departments);
      const amounts = wanted ? all.filter((r) => wanted.has(r.department)) : all;
      const byDept = new Map<string, number[]>();
      for (const r of amounts) byDept.set(r.department, [...(byDept.get(r.department) ?? []), r.amount]);
      const summary = [...byDept].map(([department, xs]) => ({
        department,
        headcount: xs.length,
        average: Math.round(xs.reduce((s, x) => s + x, 0) / xs.length),
      }));
      return { summary, amounts };
    },
  };
  return [analysis];
}
