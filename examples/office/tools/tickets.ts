import { z } from 'zod';
import type { ToolSpec } from '../../../src/tools/index.js';
import { ALL_ROLES, multiLineText, singleLineText, WRITE } from './common.js';
import type { OfficeData } from './tenant-data.js';

/** Support tickets in the caller's tenant. */
export function ticketTools(data: OfficeData): ToolSpec[] {
  const create: ToolSpec<{ title: string; body: string; priority: 'low' | 'normal' | 'high' }> = {
    name: 'ticket_create',
    description: 'Open a support ticket.',
    inputSchema: z.strictObject({
      title: singleLineText(3, 120),
      body: multiLineText(1, 4000),
      priority: z.enum(['low', 'normal', 'high']).default('normal'),
    }),
    annotations: WRITE,
    riskLevel: 'medium',
    permissions: { allowedRoles: ALL_ROLES, requiredDataLevel: 'L1', category: 'tickets' },
    requiresReview: false,
    timeoutMs: 5000,
    kind: 'domain',
    dataScopes: ['tickets'],
    async execute(args, ctx) {
      const id = `TCK-${crypto.randomUUID().slice(0, 8)}`;
      data
        .forTenant(ctx.identity)
        .prepare(
          'INSERT INTO tickets (id, title, body, priority, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(id, args.title, args.body, args.priority, ctx.identity.user, new Date().toISOString());
      return { ticketId: id, priority: args.priority };
    },
  };
  return [create];
}
