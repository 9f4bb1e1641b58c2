import { posix } from 'node:path';

export type TrustValue = 'TRUST_FOLDER' | 'TRUST_PARENT' | 'DO_NOT_TRUST';
export const TRUST_VALUES: readonly TrustValue[] = ['TRUST_FOLDER', 'TRUST_PARENT', 'DO_NOT_TRUST'];

/** `trusted` / `untrusted` from a rule, or `unknown` when no rule covers the folder (treated as untrusted). */
export type FolderTrust = 'trusted' | 'untrusted' | 'unknown';

export interface TrustDecision {
  readonly trust: FolderTrust;
  /** The rule path that decided (after TRUST_PARENT is applied). */
  readonly rulePath?: string;
}

/**
 * Trust of `folder` from `{ path: value }` rules. `TRUST_PARENT` on `/a/b` trusts `/a`. The
 * deepest rule covering the folder wins; several rules at the same depth that disagree →
 * untrusted. Pure: paths must be absolute.
 */
export function resolveFolderTrust(
  folder: string,
  rules: Readonly<Record<string, TrustValue>>,
): TrustDecision {
  const target = posix.resolve(folder);
  let bestDepth = -1;
  let trusted = false;
  let untrusted = false;
  let bestPath: string | undefined;
  for (const [rawPath, value] of Object.entries(rules)) {
    const p = posix.resolve(value === 'TRUST_PARENT' ? posix.dirname(posix.resolve(rawPath)) : rawPath);
    if (!(target === p || target.startsWith(p === '/' ? '/' : `${p}/`))) continue;
    const depth = p === '/' ? 0 : p.split('/').length;
    if (depth > bestDepth) {
      bestDepth = depth;
      trusted = false;
      untrusted = false;
      bestPath = p;
    }
    if (depth === bestDepth) {
      if (value === 'DO_NOT_TRUST') untrusted = true;
      else trusted = true;
    }
  }
  if (bestPath === undefined) return { trust: 'unknown' };
  return { trust: untrusted || !trusted ? 'untrusted' : 'trusted', rulePath: bestPath };
}

export function isTrusted(decision: TrustDecision): boolean {
  return decision.trust === 'trusted';
}
