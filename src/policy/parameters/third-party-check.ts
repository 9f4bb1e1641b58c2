import type { ThirdPartyTextLedger } from '../../gateway/types.js';

const MAX_DEPTH = 8;

/** The first string argument (path, origin) that carries text only seen in third-party output. */
export function findThirdPartyArgument(
  args: unknown,
  ledger: ThirdPartyTextLedger,
): { readonly path: string; readonly origin: string } | undefined {
  const walk = (v: unknown, path: string, depth: number): { path: string; origin: string } | undefined => {
    if (typeof v === 'string') {
      const origin = ledger.findOrigin(v);
      return origin !== undefined ? { path, origin } : undefined;
    }
    if (depth >= MAX_DEPTH || v === null || typeof v !== 'object') return undefined;
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
    for (const [k, x] of entries) {
      const hit = walk(x, path ? `${path}.${k}` : k, depth + 1);
      if (hit) return hit;
    }
    return undefined;
  };
  return walk(args, '', 0);
}
