import type { AttributeValue, Identity } from '../core/index.js';
import { BUILTIN_RULES } from './engine.js';
import { principalView, toolView } from './environment.js';
import type { AttributePath, Condition, Operand, PolicyDocument, PolicyRule, ToolFacts } from './types.js';

/**
 * Translation of a policy document into Cedar, used to check our engine against Cedar and to
 * benchmark it. It imports nothing from Cedar: it only writes Cedar text and entity JSON.
 *
 * Mapping: a rule is a `permit`/`forbid`; `roles` becomes `principal in [Role::…]`; `tools` and
 * `categories` become `action in [Action::"tool", Action::"category:c"]` (tools are members of
 * their category); `tenants` tests `principal.tenant`; `principal.*` are User attributes,
 * `tool.*` are attributes of the `Tool` resource, `args.*` live in `context.args`. Every atom
 * guards optional attributes with `has`, so a missing attribute makes the atom false in both
 * engines (instead of a Cedar evaluation error that would silently skip a forbid).
 */

/** Cedar string literal. */
export function cedarString(s: string): string {
  return JSON.stringify(s).replace(/\\u([0-9a-fA-F]{4})/g, (_m, h: string) => `\\u{${h}}`);
}

const uid = (type: string, id: string) => `${type}::${cedarString(id)}`;

/** Cedar expression and its `has` guards for an attribute path. */
function pathExpr(path: AttributePath): { expr: string; guards: string[] } {
  const [root, ...rest] = path;
  if (root === 'tool') return { expr: `resource.${rest[0]}`, guards: [] };
  if (root === 'principal') {
    const name = rest[0] as string;
    if (['user', 'tenant', 'roles', 'dataLevel'].includes(name))
      return { expr: `principal.${name}`, guards: [] };
    return { expr: `principal[${cedarString(name)}]`, guards: [`principal has ${cedarString(name)}`] };
  }
  let expr = 'context.args';
  const guards: string[] = [];
  for (const k of rest) {
    guards.push(`${expr} has ${cedarString(k)}`);
    expr = `${expr}[${cedarString(k)}]`;
  }
  return { expr, guards };
}

const RANKS: Record<string, number> = { L1: 1, L2: 2, L3: 3, L4: 4, low: 1, medium: 2, high: 3, critical: 4 };

function literal(v: unknown, ordering: boolean): string {
  if (Array.isArray(v)) return `[${v.map((x) => literal(x, false)).join(', ')}]`;
  if (typeof v === 'string') return ordering && RANKS[v] !== undefined ? String(RANKS[v]) : cedarString(v);
  return String(v);
}

function operandExpr(o: Operand, ordering: boolean): { expr: string; guards: string[] } {
  return 'ref' in o ? pathExpr(o.ref) : { expr: literal(o.value, ordering), guards: [] };
}

/** Cedar expression of a condition (see the mapping above). */
export function conditionToCedar(c: Condition): string {
  if ('all' in c) return `(${c.all.map(conditionToCedar).join(' && ')})`;
  if ('any' in c) return `(${c.any.map(conditionToCedar).join(' || ')})`;
  // parenthesised: Cedar refuses more than four chained unary operators
  if ('not' in c) return `!(${conditionToCedar(c.not)})`;
  const l = pathExpr(c.attr);
  if ('exists' in c) return l.guards.length ? `(${l.guards.join(' && ')})` : 'true';
  const ordering = c.op === 'lte' || c.op === 'gte' || c.op === 'lt' || c.op === 'gt';
  const r = operandExpr(c.operand, ordering);
  const atom = {
    equals: `${l.expr} == ${r.expr}`,
    in: `${r.expr}.contains(${l.expr})`,
    subsetOf: `${r.expr}.containsAll(${l.expr})`,
    contains: `${l.expr}.contains(${r.expr})`,
    lte: `${l.expr} <= ${r.expr}`,
    gte: `${l.expr} >= ${r.expr}`,
    lt: `${l.expr} < ${r.expr}`,
    gt: `${l.expr} > ${r.expr}`,
  }[c.op];
  return `(${[...l.guards, ...r.guards, atom].join(' && ')})`;
}

/** One rule as Cedar policy text. */
export function ruleToCedar(rule: PolicyRule): string {
  const effect = rule.effect === 'allow' ? 'permit' : 'forbid';
  const actions = [
    ...(rule.tools ?? []).map((t) => uid('Action', t)),
    ...(rule.categories ?? []).map((c) => uid('Action', `category:${c}`)),
  ];
  const scope = actions.length ? `action in [${actions.join(', ')}]` : 'action';
  const when: string[] = [];
  if (rule.roles) when.push(`principal in [${rule.roles.map((r) => uid('Role', r)).join(', ')}]`);
  if (rule.tenants) when.push(`[${rule.tenants.map(cedarString).join(', ')}].contains(principal.tenant)`);
  if (rule.when) when.push(conditionToCedar(rule.when));
  const body = when.length ? ` when { ${when.join(' && ')} }` : '';
  return `${effect} (principal, ${scope}, resource)${body};`;
}

/** The manifest checks the engine applies before any rule, as Cedar forbids. */
export const MANIFEST_CEDAR: Readonly<Record<string, string>> = {
  [BUILTIN_RULES.allowedRoles]:
    'forbid (principal, action, resource) unless { principal.roles.containsAny(resource.allowedRoles) };',
  [BUILTIN_RULES.dataLevel]:
    'forbid (principal, action, resource) unless { principal.dataLevel >= resource.dataLevel };',
};

/** The whole document (optionally only the rules in `only`) as a Cedar static policy set keyed by rule id. */
export function toCedarPolicies(doc: PolicyDocument, only?: readonly PolicyRule[]): Record<string, string> {
  const out: Record<string, string> = { ...MANIFEST_CEDAR };
  for (const r of only ?? doc.rules) out[r.id] = ruleToCedar(r);
  return out;
}

type CedarValue = string | number | boolean | CedarValue[] | { [k: string]: CedarValue };
export interface CedarEntity {
  uid: { type: string; id: string };
  attrs: Record<string, CedarValue>;
  parents: { type: string; id: string }[];
}

/** Entity id of a principal: tenant-qualified so equal user names in two tenants differ. */
export const principalId = (identity: Identity) => `${identity.tenant}/${identity.user}`;

function attrValue(v: AttributeValue): CedarValue {
  return Array.isArray(v) ? [...v] : (v as string | number | boolean);
}

/** The entities one request needs: the user and their roles, the tool and its category. */
export function cedarEntities(identity: Identity, tool: ToolFacts): CedarEntity[] {
  const p = principalView(identity);
  const t = toolView(tool);
  const attrs: Record<string, CedarValue> = {};
  for (const [k, v] of Object.entries(identity.attributes)) attrs[k] = attrValue(v);
  Object.assign(attrs, { user: p.user, tenant: p.tenant, roles: [...p.roles], dataLevel: p.dataLevel });
  return [
    {
      uid: { type: 'User', id: principalId(identity) },
      attrs,
      parents: p.roles.map((r) => ({ type: 'Role', id: r })),
    },
    ...p.roles.map((r) => ({ uid: { type: 'Role', id: r }, attrs: {}, parents: [] })),
    {
      uid: { type: 'Action', id: t.name },
      attrs: {},
      parents: [{ type: 'Action', id: `category:${t.category}` }],
    },
    { uid: { type: 'Action', id: `category:${t.category}` }, attrs: {}, parents: [] },
    {
      uid: { type: 'Tool', id: t.name },
      attrs: {
        name: t.name,
        category: t.category,
        risk: t.risk,
        dataLevel: t.dataLevel,
        allowedRoles: [...t.allowedRoles],
      },
      parents: [],
    },
  ];
}

/** JSON args as a Cedar context value: nulls dropped (absent, as in our engine). */
export function cedarArgs(v: unknown): CedarValue | undefined {
  if (v === null || v === undefined) return undefined;
  if (Array.isArray(v)) return v.map(cedarArgs).filter((x): x is CedarValue => x !== undefined);
  if (typeof v === 'object') {
    const out: Record<string, CedarValue> = {};
    for (const [k, x] of Object.entries(v)) {
      const c = cedarArgs(x);
      if (c !== undefined) out[k] = c;
    }
    return out;
  }
  return v as CedarValue;
}

/** The Cedar request for one decision. */
export function cedarRequest(identity: Identity, tool: ToolFacts, args: unknown) {
  const a = cedarArgs(args);
  return {
    principal: { type: 'User', id: principalId(identity) },
    action: { type: 'Action', id: tool.name },
    resource: { type: 'Tool', id: tool.name },
    context: { args: a !== undefined && typeof a === 'object' && !Array.isArray(a) ? a : {} },
    entities: cedarEntities(identity, tool),
  };
}
