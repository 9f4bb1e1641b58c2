import { type Expression, type SqlBool, sql } from 'kysely';
import { TenantScopeError } from './errors.js';

/**
 * Which tenants' rows a repository may see and write. Tenant isolation lives HERE and nowhere
 * else: every repository is constructed with a scope and every query it builds passes through
 * {@link restrictToTenant}, so a query without the tenant predicate cannot be written by a caller.
 *
 * - `{ kind: 'tenant' }` — what `store.forTenant(t)` hands out. Reads of another tenant's row
 *   return `undefined` / nothing; writes naming another tenant throw {@link TenantScopeError}.
 * - `{ kind: 'all-tenants' }` — the explicit cross-tenant escape, reachable only as
 *   `store.admin` (and the top-level `store.reviews` etc., which are the same objects). For the
 *   CLI, the console's operator views and trusted background workers.
 */
export type TenantScope =
  | { readonly kind: 'tenant'; readonly tenant: string }
  | { readonly kind: 'all-tenants' };

/** The cross-tenant scope. Named loudly so that reaching for it is a visible decision. */
export const ALL_TENANTS_ADMIN_SCOPE: TenantScope = Object.freeze({ kind: 'all-tenants' });

/**
 * A scope bound to one tenant. `*` and empty names are refused, so a tenant name that came from a
 * request can never widen into the admin view.
 */
export function tenantScope(tenant: string): TenantScope {
  if (typeof tenant !== 'string' || tenant.trim() === '' || tenant === '*') {
    throw new TenantScopeError(
      `invalid tenant ${JSON.stringify(tenant)}; use store.admin for cross-tenant access`,
      'store.forTenant',
    );
  }
  return Object.freeze({ kind: 'tenant', tenant });
}

/** The tenant a write goes to: the bound tenant, or the row's own tenant in the admin scope. */
export function tenantForWrite(scope: TenantScope, requested: string | undefined, where: string): string {
  if (scope.kind === 'tenant') {
    if (requested !== undefined && requested !== scope.tenant) {
      throw new TenantScopeError(
        `write for tenant ${JSON.stringify(requested)} through a repository bound to ${JSON.stringify(scope.tenant)}`,
        where,
      );
    }
    return scope.tenant;
  }
  if (!requested) {
    throw new TenantScopeError('the admin view needs an explicit tenant for this write', where);
  }
  return requested;
}

/** The tenant predicate for a scope plus an optional caller filter, or undefined when unrestricted. */
function tenantPredicate(scope: TenantScope, filter: string | undefined, where: string): string | undefined {
  if (scope.kind === 'tenant') {
    if (filter !== undefined && filter !== scope.tenant) {
      throw new TenantScopeError(
        `filter on tenant ${JSON.stringify(filter)} through a repository bound to ${JSON.stringify(scope.tenant)}`,
        where,
      );
    }
    return scope.tenant;
  }
  return filter;
}

/** Any query builder with a `where(expression)`: select, update, delete. */
interface Filterable<Self> {
  where(expression: Expression<SqlBool>): Self;
}

/**
 * Adds `tenant = …` to a query for the scope (and the caller's optional tenant filter in the admin
 * scope). The single place tenant predicates are built.
 */
export function restrictToTenant<Q extends Filterable<Q>>(
  query: Q,
  scope: TenantScope,
  where: string,
  filter?: string,
): Q {
  const tenant = tenantPredicate(scope, filter, where);
  return tenant === undefined ? query : query.where(sql<SqlBool>`tenant = ${tenant}`);
}
