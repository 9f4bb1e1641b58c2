import type { AttributeType, PolicySchema } from './attribute-schema.js';
import { attributeType, type ConditionScope, checkCondition } from './condition-check.js';
import { PolicyConfigError } from './errors.js';
import type { ArgumentConstraint, Condition, PolicyDocument, PolicyRule } from './types.js';

/** `file:line` → its parts (a bare file has no line). */
export function splitSource(source: string | undefined, fallback: string): { file: string; line?: number } {
  if (!source) return { file: fallback };
  const m = /^(.*):(\d+)$/.exec(source);
  return m ? { file: m[1] as string, line: Number(m[2]) } : { file: source };
}

function fail(
  source: string | undefined,
  fallback: string,
  rule: string,
  field: string,
  message: string,
  line?: number,
): never {
  const at = splitSource(source, fallback);
  const ln = line ?? at.line;
  throw new PolicyConfigError(
    { file: at.file, rule, field, ...(ln !== undefined ? { line: ln } : {}) },
    message,
  );
}

/** The tools a rule can apply to: its `tools`, else its `categories`' tools, else every tool. */
export function toolsInScope(
  rule: { readonly tools?: readonly string[]; readonly categories?: readonly string[] },
  schema: PolicySchema,
): string[] {
  if (rule.tools) return rule.tools.filter((t) => schema.tools.has(t));
  const all = [...schema.tools.keys()];
  if (!rule.categories) return all;
  const cats = new Set(rule.categories);
  return all.filter((t) => cats.has(schema.tools.get(t)?.category as string));
}

/**
 * Checks a merged policy document against what exists: every rule's tools, categories, roles and
 * tenants are declared; every condition refers to attributes that exist, with operands of a type
 * that can match, and can be true for some call; every parameter constraint names a tool
 * argument of the type it constrains. Throws {@link PolicyConfigError} naming file, rule, field
 * and line — a deny rule that could never fire must not load as if it protected something.
 */
export function checkPolicyDocument(doc: PolicyDocument, schema: PolicySchema): void {
  const fallback = doc.source ?? '(policy)';
  for (const rule of doc.rules) checkRule(rule, schema, fallback);
  for (const [tool, args] of Object.entries(doc.parameters.tools)) {
    for (const [arg, c] of Object.entries(args)) checkConstraint(tool, arg, c, schema, fallback);
  }
}

function checkRule(rule: PolicyRule, schema: PolicySchema, fallback: string): void {
  const where = (field: string, message: string): never =>
    fail(rule.source, fallback, rule.id, field, message);
  unknownNames(rule.tools, schema.tools, 'tool', (m) => where('tools', m));
  unknownNames(rule.categories, schema.categories, 'category', (m) => where('categories', m));
  // Grants name roles: a grant for a role nobody holds is harmless, a scoped rule's role is a typo.
  if (!rule.id.startsWith('grant.')) unknownNames(rule.roles, schema.roles, 'role', (m) => where('roles', m));
  unknownNames(rule.tenants, schema.tenants, 'tenant', (m) => where('tenants', m));
  const tools = toolsInScope(rule, schema);
  if (tools.length === 0 && (rule.tools || rule.categories)) {
    where(rule.tools ? 'tools' : 'categories', 'the rule applies to no registered tool');
  }
  if (rule.when) checkWhen(rule.when, { schema, tools }, rule.source, fallback, rule.id);
}

/** Checks a rule's condition; throws at the atom that cannot mean what it says. */
export function checkWhen(
  when: Condition,
  scope: ConditionScope,
  source: string | undefined,
  fallback: string,
  ruleId: string,
): void {
  const problem = checkCondition(when, scope);
  if (problem) {
    fail(source, fallback, ruleId, problem.site?.field ?? 'when', problem.message, problem.site?.line);
  }
}

function unknownNames(
  names: readonly string[] | undefined,
  known: { has(name: string): boolean },
  what: string,
  report: (message: string) => never,
): void {
  const unknown = (names ?? []).filter((n) => !known.has(n));
  if (unknown.length > 0) {
    report(
      `unknown ${what}${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => JSON.stringify(n)).join(', ')}`,
    );
  }
}

function checkConstraint(
  tool: string,
  arg: string,
  c: ArgumentConstraint,
  schema: PolicySchema,
  fallback: string,
): void {
  const rule = `parameters.${tool}`;
  function where(field: string, message: string): never {
    return fail(c.source, fallback, rule, field, message);
  }
  const shape = schema.tools.get(tool);
  if (!shape) where(arg, `unknown tool "${tool}": the constraint would never apply`);
  const found = attributeType(['args', arg], { schema, tools: [tool] });
  if ('problem' in found) where(arg, `${tool} takes no argument "${arg}": the constraint would never apply`);
  const t = found.type;
  const any = t.kinds.has('any');
  if (c.date && !any && !t.kinds.has('string')) {
    where(`${arg}.date`, `a date constraint needs a string argument; ${tool}.${arg} is ${kindsOf(t)}`);
  }
  if (c.number) {
    if (!any && !t.kinds.has('number')) {
      where(`${arg}.number`, `a number constraint needs a number argument; ${tool}.${arg} is ${kindsOf(t)}`);
    }
    if (c.number.min !== undefined && c.number.max !== undefined && c.number.min > c.number.max) {
      where(
        `${arg}.number`,
        `min ${c.number.min} is above max ${c.number.max}: every value would be refused`,
      );
    }
  }
  if (c.oneOf && !any) {
    const fits = c.oneOf.filter(
      (v) => t.kinds.has(typeof v as 'string' | 'number') && (!t.values || t.values.has(v)),
    );
    if (fits.length === 0) {
      where(`${arg}.oneOf`, `no listed value can ever be given: ${tool}.${arg} is ${kindsOf(t)}`);
    }
  }
  if (c.scope) {
    const within = c.scope.within;
    const p = schema.principal.get(within[1] as string);
    if (!p) {
      where(`${arg}.scope.within`, `unknown attribute ${within.join('.')}: no user in the directory has it`);
    }
    const stringish = (x: AttributeType) =>
      x.kinds.has('string') || (x.kinds.has('array') && x.items?.kinds.has('string'));
    if (!p.kinds.has('any') && !stringish(p)) {
      where(`${arg}.scope.within`, `${within.join('.')} holds ${kindsOf(p)}; a scope needs strings`);
    }
    if (!any && !stringish(t)) {
      where(`${arg}.scope`, `a scope needs a string or list argument; ${tool}.${arg} is ${kindsOf(t)}`);
    }
    unknownNames(c.scope.exemptRoles, schema.roles, 'role', (m) => where(`${arg}.scope.exemptRoles`, m));
  }
}

function kindsOf(t: AttributeType): string {
  return [...t.kinds].map((k) => (k === 'array' ? 'a list' : `a ${k}`)).join(' or ');
}
