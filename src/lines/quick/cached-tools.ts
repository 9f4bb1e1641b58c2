import type { ToolSpec } from '../../tools/index.js';
import type { QuickResultCache } from './result-cache.js';

/** Default lifetime of a cached read: five minutes (docs/lines.md, "Quick line and its read cache"). */
export const DEFAULT_CACHE_TTL_MS = 5 * 60_000;

/**
 * Wraps a tool for the quick line's gateway: a read-only tool answers from the cache when it can;
 * a write tool invalidates the scopes it touches after it runs. The gateway's stages still run
 * for every call — the cache skips only the backend, never a decision or the audit record.
 */
export function withQuickCache(tool: ToolSpec, cache: QuickResultCache): ToolSpec {
  const scopes = tool.dataScopes && tool.dataScopes.length > 0 ? tool.dataScopes : [tool.name];
  if (tool.annotations.readOnly) {
    const ttl = tool.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS;
    return {
      ...tool,
      async execute(args, ctx) {
        const key = await cache.key(tool.name, scopes, args, ctx.identity);
        const hit = await cache.get(key);
        if (hit !== undefined) return hit;
        const result = await tool.execute(args, ctx);
        await cache.set(key, result, ttl);
        return result;
      },
    };
  }
  return {
    ...tool,
    async execute(args, ctx) {
      try {
        return await tool.execute(args, ctx);
      } finally {
        // Invalidate even when the write failed half-way: a stale read is worse than a miss.
        await cache.invalidate(ctx.identity.tenant, scopes);
      }
    },
  };
}
