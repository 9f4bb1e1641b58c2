import type { Identity } from '../../core/index.js';
import type { ScopeConstraint } from '../types.js';

export type ScopeOutcome =
  | { readonly kind: 'ok' }
  | { readonly kind: 'narrowed'; readonly value: unknown; readonly removed: readonly string[] }
  | { readonly kind: 'refused'; readonly reason: string; readonly allowed: readonly string[] };

/** The values of the principal attribute a scope refers to, or undefined when the user has none. */
function allowedValues(identity: Identity, scope: ScopeConstraint): readonly string[] | undefined {
  const name = scope.within[1] as string;
  const v =
    name === 'user'
      ? identity.user
      : name === 'tenant'
        ? identity.tenant
        : name === 'roles'
          ? identity.roles
          : identity.attributes[name];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v as readonly string[];
  return undefined;
}

/**
 * Keeps one argument inside what the caller may see: a list is narrowed to its allowed part (or
 * refused), a wildcard such as `all` becomes the caller's own set, a scalar must be allowed.
 */
export function checkScope(
  arg: string,
  value: unknown,
  scope: ScopeConstraint,
  identity: Identity,
): ScopeOutcome {
  if (value === undefined) return { kind: 'ok' };
  if (scope.exemptRoles?.some((r) => identity.roles.includes(r))) return { kind: 'ok' };
  const attr = scope.within.slice(1).join('.');
  const allowed = allowedValues(identity, scope);
  if (!allowed || allowed.length === 0) {
    return { kind: 'refused', allowed: [], reason: `${arg}: you have no ${attr} to scope this request to` };
  }
  const narrow = scope.onOutside === 'narrow';
  const list = Array.isArray(value) ? (value as unknown[]) : undefined;
  if (list) {
    const wild = scope.wildcard !== undefined && list.includes(scope.wildcard);
    const outside = list.filter((x) => typeof x !== 'string' || !allowed.includes(x)).map(String);
    if (!wild && outside.length === 0) return { kind: 'ok' };
    const inside = wild
      ? [...allowed]
      : list.filter((x): x is string => typeof x === 'string' && allowed.includes(x));
    if (narrow && inside.length > 0) return { kind: 'narrowed', value: inside, removed: outside };
    return {
      kind: 'refused',
      allowed,
      reason: `${arg} may only name your own ${attr} (${allowed.join(', ')}); ${outside.join(', ')} is outside it`,
    };
  }
  if (typeof value === 'string' && allowed.includes(value) && value !== scope.wildcard) return { kind: 'ok' };
  if (narrow && allowed.length === 1)
    return { kind: 'narrowed', value: allowed[0], removed: [String(value)] };
  return {
    kind: 'refused',
    allowed,
    reason: `${arg} must be one of your own ${attr} (${allowed.join(', ')}), not ${JSON.stringify(value)}`,
  };
}
