import { z } from 'zod';
import type { ToolSpec } from '../../../src/tools/index.js';
import { ALL_ROLES, READ_ONLY, READ_TTL_MS } from './common.js';
import type { OfficeData } from './tenant-data.js';

/** Knowledge-base search. Document bodies are third-party text: data, never instructions. */
export function docTools(data: OfficeData): ToolSpec[] {
  const search: ToolSpec<{ query: string; limit: number }> = {
    name: 'doc_search',
    description: 'Search internal documents by words in the title or body.',
    inputSchema: z.strictObject({
      query: z.string().min(1).max(200),
      limit: z.number().int().min(1).max(20).default(5),
    }),
    annotations: READ_ONLY,
    riskLevel: 'low',
    permissions: { allowedRoles: ALL_ROLES, requiredDataLevel: 'L1', category: 'docs' },
    requiresReview: false,
    timeoutMs: 5000,
    cacheTtlMs: READ_TTL_MS,
    kind: 'domain',
    dataScopes: ['docs'],
    thirdPartyFields: ['documents[].body'],
    async execute(args, ctx) {
      const words = args.query.toLowerCase().split(/\s+/).filter(Boolean);
      const rows = data
        .forTenant(ctx.identity)
        .prepare('SELECT id, title, body FROM documents ORDER BY id')
        .all() as {
        id: string;
        title: string;
        body: string;
      }[];
      const scored = rows
        .map((r) => {
          const text = `${r.title} ${r.body}`.toLowerCase();
          return { r, score: words.filter((w) => text.includes(w)).length };
        })
        .filter((s) => s.score > 0)
        .sort((a, b) => b.score - a.score || a.r.id.localeCompare(b.r.id));
      return { documents: scored.slice(0, args.limit).map((s) => s.r) };
    },
  };
  return [search];
}
