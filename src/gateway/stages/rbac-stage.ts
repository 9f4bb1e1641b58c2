import { DATA_LEVELS, type DataLevel, decide, type StageDecision } from '../../core/index.js';
import type { ToolSpec } from '../../tools/index.js';
import type { CallContext, GatewayStage, PreparedCall } from '../types.js';

const ALLOW: StageDecision = Object.freeze({
  verdict: 'allow',
  stage: 'rbac',
  ruleId: 'rbac.allowed',
  reason: 'role, data level and tenant permit the call',
});

const RANK: Readonly<Record<string, number>> = Object.fromEntries(DATA_LEVELS.map((l, i) => [l, i + 1]));

// Role sets built once per manifest so a check is O(caller roles), whatever the role count.
const roleSets = new WeakMap<ToolSpec, ReadonlySet<string>>();
function allowedRoleSet(tool: ToolSpec): ReadonlySet<string> {
  let set = roleSets.get(tool);
  if (!set) {
    set = new Set(tool.permissions.allowedRoles);
    roleSets.set(tool, set);
  }
  return set;
}

/**
 * Role-based access from the manifest: a caller role in `allowedRoles`, a data level at least
 * `requiredDataLevel`, and the caller's tenant matching the request's and the tool's tenants.
 */
export const rbacStage: GatewayStage = {
  name: 'rbac',
  evaluate(call: PreparedCall, ctx: CallContext): StageDecision {
    return checkRbac(call.tool, ctx);
  },
};

/**
 * The tenant part of RBAC: the caller's tenant must be the one the request is addressed to and one
 * the tool serves. Undefined when both hold. The policy slot runs it before the policy engine too.
 */
export function checkTenancy(tool: ToolSpec, ctx: CallContext): StageDecision | undefined {
  const id = ctx.identity;
  if (ctx.tenant !== undefined && ctx.tenant !== id.tenant) {
    return decide(
      'deny',
      'rbac',
      'rbac.tenant-mismatch',
      `User ${id.user} of tenant ${id.tenant} may not act in tenant ${ctx.tenant}.`,
    );
  }
  if (tool.tenants && !tool.tenants.includes(id.tenant)) {
    return decide(
      'deny',
      'rbac',
      'rbac.tenant-mismatch',
      `Tool ${tool.name} does not serve tenant ${id.tenant}.`,
    );
  }
  return undefined;
}

/** The RBAC decision as a pure function of manifest and caller. */
export function checkRbac(tool: ToolSpec, ctx: CallContext): StageDecision {
  const tenancy = checkTenancy(tool, ctx);
  if (tenancy) return tenancy;
  const id = ctx.identity;
  const allowed = allowedRoleSet(tool);
  let hasRole = false;
  for (const role of id.roles) {
    if (allowed.has(role)) {
      hasRole = true;
      break;
    }
  }
  if (!hasRole) {
    return decide(
      'deny',
      'rbac',
      'rbac.role-not-allowed',
      `None of the roles of ${id.user} may use ${tool.name}.`,
    );
  }
  const need: DataLevel = tool.permissions.requiredDataLevel;
  if ((RANK[id.dataLevel] ?? 0) < (RANK[need] ?? Number.POSITIVE_INFINITY)) {
    return decide(
      'deny',
      'rbac',
      'rbac.data-level',
      `${tool.name} needs data level ${need}; ${id.user} has ${id.dataLevel}.`,
    );
  }
  return ALLOW;
}
