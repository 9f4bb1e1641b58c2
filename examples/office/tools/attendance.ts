import { z } from 'zod';
import type { ToolSpec } from '../../../src/tools/index.js';
import { isoDate, READ_ONLY, READ_TTL_MS, userName } from './common.js';
import type { OfficeData } from './tenant-data.js';

const department = z.enum(['sales', 'rd', 'finance', 'hr', 'ops']);

/** Attendance records of the caller's tenant. */
export function attendanceTools(data: OfficeData): ToolSpec[] {
  const query: ToolSpec<{
    from: string;
    to: string;
    department?: string | undefined;
    user?: string | undefined;
    status?: string | undefined;
  }> = {
    name: 'attendance_query',
    description:
      'Attendance records (present, late, leave, absent) between two dates, by department or user.',
    inputSchema: z.strictObject({
      from: isoDate,
      to: isoDate,
      department: department.optional(),
      user: userName.optional(),
      status: z.enum(['present', 'late', 'leave', 'absent']).optional(),
    }),
    annotations: READ_ONLY,
    riskLevel: 'low',
    permissions: {
      allowedRoles: ['employee', 'sales_manager', 'hr_analyst'],
      requiredDataLevel: 'L1',
      category: 'attendance',
    },
    requiresReview: false,
    timeoutMs: 5000,
    cacheTtlMs: READ_TTL_MS,
    kind: 'domain',
    dataScopes: ['attendance'],
    async execute(args, ctx) {
      const where = ['date BETWEEN ? AND ?'];
      const params: unknown[] = [args.from, args.to];
      for (const key of ['department', 'user', 'status'] as const) {
        if (args[key]) {
          where.push(`${key} = ?`);
          params.push(args[key]);
        }
      }
      const records = data
        .forTenant(ctx.identity)
        .prepare(
          `SELECT user, date, status, department FROM attendance WHERE ${where.join(' AND ')} ORDER BY date, user`,
        )
        .all(...params);
      return { records };
    },
  };
  return [query];
}
