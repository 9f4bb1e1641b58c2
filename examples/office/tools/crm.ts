import { z } from 'zod';
import type { Identity } from '../../../src/core/index.js';
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

/**
 * The customers a caller may see, as an SQL condition: a sales manager those of their own region,
 * anyone with a CRM role those they own; nobody else any. Every CRM tool reads through it, so a
 * name the caller may not see reads exactly like a name that does not exist.
 */
export function visibleCustomers(identity: Identity): { where: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  const region = identity.attributes['region'];
  if (identity.roles.includes('sales_manager') && typeof region === 'string') {
    parts.push('region = ?');
    params.push(region);
  }
  if (identity.roles.includes('employee') || identity.roles.includes('sales_manager')) {
    parts.push('owner = ?');
    params.push(identity.user);
  }
  return parts.length > 0 ? { where: `(${parts.join(' OR ')})`, params } : { where: '0 = 1', params };
}

/** Customer records and renewal drafting for the caller's tenant. */
export function crmTools(data: OfficeData): ToolSpec[] {
  const lookup: ToolSpec<{
    name?: string | undefined;
    region?: string | undefined;
    owner?: string | undefined;
  }> = {
    name: 'customer_lookup',
    description:
      'Find customers by (part of) name, region or owning sales rep, among those the caller may see (a manager: their region; anyone: their own).',
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
      const scope = visibleCustomers(ctx.identity);
      const where = [scope.where];
      const params: unknown[] = [...scope.params];
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
    description: 'Draft (not send) a renewal message for a customer the caller may see.',
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
      const scope = visibleCustomers(ctx.identity);
      const row = data
        .forTenant(ctx.identity)
        .prepare(`SELECT name FROM customers WHERE name = ? AND ${scope.where}`)
        .get(args.customer, ...scope.params) as { name: string } | undefined;
      // One answer for "no such customer" and "not yours": the draft is no existence oracle.
      if (!row) throw new Error(`no customer named ${args.customer} among the customers you may see`);
      const greeting = args.tone === 'formal' ? `Dear ${row.name} team,` : `Hi ${row.name} team!`;
      return {
        customer: row.name,
        draft: `${greeting}\nYour ${args.product} is due for renewal. We would be glad to walk you through the options for next year.\nBest regards,\n${ctx.identity.user}`,
      };
    },
  };
  return [lookup, draft];
}
