import type { Identity } from '../core/index.js';
import { type CompiledCondition, compileCondition } from './condition.js';
import {
  type DecisionEnv,
  type PrincipalView,
  principalView,
  type ToolView,
  toolView,
} from './environment.js';
import type { PolicyDecision, PolicyDocument, PolicyRule, ToolFacts } from './types.js';

/** Rule ids the engine itself decides with. */
export const BUILTIN_RULES = {
  defaultDeny: 'policy.default-deny',
  allowedRoles: 'manifest.allowed-roles',
  dataLevel: 'manifest.data-level',
} as const;

interface CompiledRule {
  readonly order: number;
  readonly rule: PolicyRule;
  readonly roles: ReadonlySet<string> | undefined;
  readonly tenants: ReadonlySet<string> | undefined;
  readonly test: CompiledCondition | undefined;
  readonly decision: PolicyDecision;
}

/** The rules of one tool that can apply to one (tenant, roles) combination, deny first. */
interface Slice {
  readonly deny: readonly CompiledRule[];
  readonly allow: readonly CompiledRule[];
}

interface ToolRules {
  readonly category: string;
  readonly rules: readonly CompiledRule[];
  readonly slices: Map<string, Slice>;
}

const MAX_SLICES_PER_TOOL = 4096;

/**
 * RBAC + ABAC decisions from a validated policy document. Rules are indexed by tool and
 * category, compiled to closures once, and for each tool pre-filtered by the caller's tenant and
 * roles; a decision then runs only the conditions that can apply and stops at the first match.
 * Deny wins over allow; nothing matching is a deny (`policy.default-deny`).
 */
export class PolicyEngine {
  private readonly byTool = new Map<string, CompiledRule[]>();
  private readonly byCategory = new Map<string, CompiledRule[]>();
  private readonly everywhere: CompiledRule[] = [];
  private readonly perTool = new Map<string, ToolRules>();

  constructor(readonly document: PolicyDocument) {
    document.rules.forEach((rule, order) => {
      const compiled = compileRule(rule, order);
      if (!rule.tools && !rule.categories) this.everywhere.push(compiled);
      for (const t of rule.tools ?? []) push(this.byTool, t, compiled);
      for (const c of rule.categories ?? []) push(this.byCategory, c, compiled);
    });
  }

  /** Decides one call. `identity` comes from trusted ingress; `args` are only ever data. */
  decide(identity: Identity, tool: ToolFacts, args: unknown): PolicyDecision {
    return this.decideFor(principalView(identity), toolView(tool), args);
  }

  /** As `decide`, for callers that already hold the views (benchmarks, property tests). */
  decideFor(p: PrincipalView, t: ToolView, args: unknown): PolicyDecision {
    if (!p.roles.some((r) => t.allowedRoles.includes(r))) return manifestDeny(BUILTIN_RULES.allowedRoles, t);
    if (p.dataLevel < t.dataLevel) return manifestDeny(BUILTIN_RULES.dataLevel, t);
    const slice = this.slice(p, t);
    const env: DecisionEnv = { p, t, args };
    for (const r of slice.deny) if (!r.test || r.test(env)) return r.decision;
    for (const r of slice.allow) if (!r.test || r.test(env)) return r.decision;
    return {
      effect: 'deny',
      ruleId: BUILTIN_RULES.defaultDeny,
      reason: `no policy rule allows ${t.name} for roles [${p.roles.join(', ')}] with these arguments`,
    };
  }

  /** Every rule that names this tool (directly, by category, or globally), in document order. */
  rulesFor(name: string, category: string): readonly PolicyRule[] {
    return this.toolRules(name, category).rules.map((r) => r.rule);
  }

  private toolRules(name: string, category: string): ToolRules {
    const key = `${name}\u0000${category}`;
    let tr = this.perTool.get(key);
    if (!tr) {
      const seen = new Set<CompiledRule>();
      for (const r of [
        ...(this.byTool.get(name) ?? []),
        ...(this.byCategory.get(category) ?? []),
        ...this.everywhere,
      ]) {
        seen.add(r);
      }
      tr = { category, rules: [...seen].sort((a, b) => a.order - b.order), slices: new Map() };
      this.perTool.set(key, tr);
    }
    return tr;
  }

  private slice(p: PrincipalView, t: ToolView): Slice {
    const tr = this.toolRules(t.name, t.category);
    let s = tr.slices.get(p.sliceKey);
    if (!s) {
      const applies = tr.rules.filter(
        (r) => (!r.roles || p.roles.some((x) => r.roles?.has(x))) && (!r.tenants || r.tenants.has(p.tenant)),
      );
      s = {
        deny: applies.filter((r) => r.rule.effect === 'deny'),
        allow: applies.filter((r) => r.rule.effect === 'allow'),
      };
      if (tr.slices.size >= MAX_SLICES_PER_TOOL) tr.slices.clear();
      tr.slices.set(p.sliceKey, s);
    }
    return s;
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

function compileRule(rule: PolicyRule, order: number): CompiledRule {
  const why = rule.description ? `: ${rule.description}` : '';
  return {
    order,
    rule,
    roles: rule.roles ? new Set(rule.roles) : undefined,
    tenants: rule.tenants ? new Set(rule.tenants) : undefined,
    test: rule.when ? compileCondition(rule.when) : undefined,
    decision: {
      effect: rule.effect,
      ruleId: rule.id,
      reason:
        rule.effect === 'deny'
          ? `denied by policy rule "${rule.id}"${why}`
          : `allowed by policy rule "${rule.id}"${why}`,
    },
  };
}

function manifestDeny(ruleId: string, t: ToolView): PolicyDecision {
  const reason =
    ruleId === BUILTIN_RULES.allowedRoles
      ? t.allowedRoles.length === 0
        ? `${t.name} may not be called by any role`
        : `${t.name} requires one of the roles [${t.allowedRoles.join(', ')}]`
      : `${t.name} requires data level L${t.dataLevel} or above`;
  return { effect: 'deny', ruleId, reason };
}

/** Manifest facts of a tool spec, for `PolicyEngine.decide`. */
export function toolFacts(tool: {
  readonly name: string;
  readonly riskLevel: ToolFacts['riskLevel'];
  readonly permissions: {
    readonly category: string;
    readonly requiredDataLevel: ToolFacts['requiredDataLevel'];
    readonly allowedRoles: readonly string[];
  };
}): ToolFacts {
  return {
    name: tool.name,
    category: tool.permissions.category,
    riskLevel: tool.riskLevel,
    requiredDataLevel: tool.permissions.requiredDataLevel,
    allowedRoles: tool.permissions.allowedRoles,
  };
}
