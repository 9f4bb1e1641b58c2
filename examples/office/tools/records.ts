import { z } from 'zod';
import type { ToolSpec } from '../../../src/tools/index.js';
import { DESTRUCTIVE } from './common.js';
import type { OfficeData } from './tenant-data.js';

const TABLES = { customers: 'customers', tickets: 'tickets', documents: 'documents' } as const;

/** Deleting records: critical, no role by default, review required. */
export function recordTools(data: OfficeData): ToolSpec[] {
  const del: ToolSpec<{ table: keyof typeof TABLES; id: string }> = {
    name: 'record_delete',
    description: 'Permanently delete one record (customer, ticket or document) by id.',
    inputSchema: z.strictObject({
      table: z.enum(['customers', 'tickets', 'documents']),
      id: z.string().regex(/^[A-Za-z0-9-]{1,64}$/),
    }),
    annotations: DESTRUCTIVE,
    riskLevel: 'critical',
    // Not "remove" or 清除 alone: "remove me from the meeting" and 清除缓存 delete no record.
    intentKeywords: ['删除', '删掉', '清除记录', 'delete', 'purge', 'remove the record', 'remove record'],
    permissions: { allowedRoles: [], requiredDataLevel: 'L4', category: 'records' },
    requiresReview: true,
    timeoutMs: 5000,
    kind: 'domain',
    dataScopes: ['crm', 'tickets', 'docs'],
    async execute(args, ctx) {
      const res = data
        .forTenant(ctx.identity)
        .prepare(`DELETE FROM ${TABLES[args.table]} WHERE id = ?`)
        .run(args.id);
      return { table: args.table, id: args.id, deleted: res.changes };
    },
  };
  return [del];
}
