import { z } from 'zod';
import type { ToolSpec } from '../../../src/tools/index.js';
import { READ_ONLY, READ_TTL_MS, region, singleLineText, userName } from './common.js';
import type { OfficeData } from './tenant-data.js';

interface CustomerRow {
  name: string;
  phone: string;
  email: string;
  owner: string;
  region: string;
}

/** Customer records and renewal drafting for the caller's tenant. */
export function crmTools(data: OfficeData): ToolSpec[] {
  const lookup: ToolSpec<{
    name?: string | undefined;
    region?: string | undefined;
    owner?: string | undefined;
  }> = {
    name: 'customer_lookup',
    description: 'Find customers by (part of) name, region or owning sales rep.',
    inputSchema: z.strictObject({
      name: singleLineText(1, 100).optional(),
      region: region.optional(),
      owner: userName.optional(),
    }),
    annotations: READ_ONLY,
    riskLevel: 'medium',
    permissions: { allowedRoles: ['employee', 'sales_manager'], requiredDataLevel: 'L2', category: 'crm' },
    requiresReview: false,
    timeoutMs: 5000,
    cacheTtlMs: READ_TTL_MS,
    kind: 'domain',
    dataScopes: ['crm'],
    fieldTags: { 'customers[].phone': 'pii.phone', 'customers[].email': 'pii.email' },
    async execute(args, ctx) {
      const where = ['1 = 1'];
      const params: unknown[] = [];
      if (args.name) {
        where.push("name LIKE ? ESCAPE '\\'");
        params.push(`%${args.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      }
      if (args.region) {
        where.push('region = ?');
        params.push(args.region);
      }
      if (args.owner) {
        where.push('owner = ?');
        params.push(args.owner);
      }
      const customers = data
        .forTenant(ctx.identity)
        .prepare(
          `SELECT name, phone, email, owner, region FROM customers WHERE ${where.join(' AND ')} ORDER BY name`,
        )
        .all(...params) as CustomerRow[];
      return { customers };
    },
  };

  const draft: ToolSpec<{ customer: string; product: string; tone: 'formal' | 'friendly' }> = {
    name: 'renewal_message_draft',
    description: 'Draft (not send) a renewal message for a customer of the caller’s tenant.',
    inputSchema: z.strictObject({
      customer: singleLineText(1, 100),
      product: singleLineText(1, 60).default('subscription'),
      tone: z.enum(['formal', 'friendly']).default('formal'),
    }),
    annotations: READ_ONLY,
    riskLevel: 'low',
    permissions: { allowedRoles: ['employee', 'sales_manager'], requiredDataLevel: 'L1', category: 'crm' },
    requiresReview: false,
    timeoutMs: 5000,
    kind: 'domain',
    dataScopes: ['crm'],
    async execute(args, ctx) {
      const row = data
        .forTenant(ctx.identity)
        .prepare('SELECT name FROM customers WHERE name = ?')
        .get(args.customer) as { name: string } | undefined;
      if (!row) throw new Error(`no customer named ${args.customer}`);
      const greeting = args.tone === 'formal' ? `Dear ${row.name} team,` : `Hi ${row.name} team!`;
      return {
        customer: row.name,
        draft: `${greeting}\nYour ${args.product} is due for renewal. We would be glad to walk you through the options for next year.\nBest regards,\n${ctx.identity.user}`,
      };
    },
  };
  return [lookup, draft];
}
