import { z } from 'zod';
import type { ToolSpec } from '../../../src/tools/index.js';
import { ALL_ROLES, READ_TTL_MS } from './common.js';
import type { OfficeData } from './tenant-data.js';

/** Fetches a web page from the local fixtures. The text is third-party: data, never instructions. */
export function webTools(data: OfficeData): ToolSpec[] {
  const fetchPage: ToolSpec<{ url: string }> = {
    name: 'page_fetch',
    description: 'Fetch the text of a web page (https only).',
    inputSchema: z.strictObject({ url: z.url({ protocol: /^https$/ }).max(500) }),
    annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
    riskLevel: 'low',
    permissions: { allowedRoles: ALL_ROLES, requiredDataLevel: 'L1', category: 'web' },
    requiresReview: false,
    timeoutMs: 5000,
    cacheTtlMs: READ_TTL_MS,
    kind: 'domain',
    dataScopes: ['web'],
    thirdPartyFields: ['body'],
    async execute(args, ctx) {
      const page = data
        .forTenant(ctx.identity)
        .prepare('SELECT url, title, body FROM pages WHERE url = ?')
        .get(args.url) as { url: string; title: string; body: string } | undefined;
      if (!page) throw Object.assign(new Error(`page not found: ${args.url}`), { code: 'page.not-found' });
      return page;
    },
  };
  return [fetchPage];
}
