import { DATA_LEVELS } from '../core/index.js';
import { RISK_LEVELS } from '../tools/index.js';
import {
  type AttributeKind,
  type AttributeType,
  argumentType,
  type PolicySchema,
  toolAttributeType,
} from './attribute-schema.js';
import type { AttributePath, ComparisonOp, Condition, ConditionSite, Operand } from './types.js';

/** A condition atom that cannot mean what it says, with where it was written. */
export interface ConditionProblem {
  readonly message: string;
  readonly site?: ConditionSite;
}

/** What one condition is checked against: the schema and the tools the rule can apply to. */
export interface ConditionScope {
  readonly schema: PolicySchema;
  /** Tools the rule applies to (its `tools`, its `categories`' tools, or every tool). */
  readonly tools: readonly string[];
}

type Atom = Extract<Condition, { attr: AttributePath }>;
type LiteralValue = Extract<Operand, { value: unknown }>['value'];

/** Whether a (sub)condition can be true and can be false for some call; `why` says why not. */
interface Reach {
  readonly canBeTrue: boolean;
  readonly canBeFalse: boolean;
  readonly whyNeverTrue?: ConditionProblem;
  readonly whyNeverFalse?: ConditionProblem;
}

/**
 * Checks a condition against the attribute types. Returns the first problem: an unknown
 * attribute, an operand whose type can never match the attribute's (`gt: "two hundred"` on a
 * number, `equals: 3` on a string, a value outside an enum), or a condition that as a whole can
 * never be true (so a deny rule would never fire). Conjunctions are judged atom by atom (their
 * atoms are treated as independent), so a contradiction between two atoms is not caught.
 */
export function checkCondition(cond: Condition, scope: ConditionScope): ConditionProblem | undefined {
  const typeProblem = firstTypeProblem(cond, scope);
  if (typeProblem) return typeProblem;
  const r = reach(cond, scope);
  if (!r.canBeTrue) {
    const why = r.whyNeverTrue;
    return {
      message: `the condition can never be true${why ? `: ${why.message}` : ''}`,
      ...(why?.site ? { site: why.site } : {}),
    };
  }
  return undefined;
}

function firstTypeProblem(cond: Condition, scope: ConditionScope): ConditionProblem | undefined {
  if ('all' in cond) return firstOf(cond.all, scope);
  if ('any' in cond) return firstOf(cond.any, scope);
  if ('not' in cond) return firstTypeProblem(cond.not, scope);
  return atomTypeProblem(cond, scope);
}

function firstOf(list: readonly Condition[], scope: ConditionScope): ConditionProblem | undefined {
  for (const c of list) {
    const p = firstTypeProblem(c, scope);
    if (p) return p;
  }
  return undefined;
}

/** The type of an attribute path in scope, or a problem naming why it is unknown. */
export function attributeType(
  path: AttributePath,
  scope: ConditionScope,
): { type: AttributeType } | { problem: string } {
  const [root, first, ...rest] = path;
  const dotted = path.join('.');
  if (root === 'principal') {
    const t = scope.schema.principal.get(first as string);
    if (t) return { type: t };
    const declared = [...scope.schema.principal.keys()].join(', ');
    return {
      problem: `unknown attribute ${dotted}: no user in the directory has "${first}" (principal attributes: ${declared})`,
    };
  }
  if (root === 'tool') return { type: toolAttributeType(first as string, scope.schema, scope.tools) };
  const t = argumentType([first as string, ...rest], scope.schema, scope.tools);
  if (t) return { type: t };
  const tools = scope.tools.length > 6 ? `${scope.tools.slice(0, 6).join(', ')}, …` : scope.tools.join(', ');
  return {
    problem: `unknown attribute ${dotted}: no tool in scope (${tools || 'none'}) takes that argument`,
  };
}

const describe = (t: AttributeType): string => {
  const kinds = [...t.kinds].filter((k) => k !== 'any');
  if (t.level) return t.level === 'data' ? 'a data level (L1-L4)' : 'a risk level (low-critical)';
  if (kinds.length === 0) return 'untyped';
  return kinds
    .map((k) => (k === 'array' ? `a list${t.items ? ` of ${describe(t.items)}` : ''}` : `a ${k}`))
    .join(' or ');
};

const has = (t: AttributeType, k: AttributeKind): boolean => t.kinds.has(k) || t.kinds.has('any');
const isAny = (t: AttributeType): boolean => t.kinds.has('any');

function literalKind(v: unknown): AttributeKind {
  return Array.isArray(v) ? 'array' : (typeof v as AttributeKind);
}

function atomTypeProblem(atom: Atom, scope: ConditionScope): ConditionProblem | undefined {
  const site = atom.at;
  const fail = (message: string): ConditionProblem => ({ message, ...(site ? { site } : {}) });
  const left = attributeType(atom.attr, scope);
  if ('problem' in left) return fail(left.problem);
  if ('exists' in atom) return undefined;
  const lhs = atom.attr.join('.');
  const L = left.type;
  const { op, operand } = atom;
  if ('ref' in operand) {
    const right = attributeType(operand.ref, scope);
    if ('problem' in right) return fail(right.problem);
    const why = refMismatch(op, L, right.type);
    return why ? fail(`${lhs} ${op} ${operand.ref.join('.')}: ${why}`) : undefined;
  }
  const why = literalMismatch(op, L, operand.value);
  return why ? fail(`${lhs} ${op} ${JSON.stringify(operand.value)}: ${why}`) : undefined;
}

const ORDERING: ReadonlySet<ComparisonOp> = new Set(['lt', 'lte', 'gt', 'gte']);

function levelOfName(v: string): 'data' | 'risk' | undefined {
  if ((DATA_LEVELS as readonly string[]).includes(v)) return 'data';
  if ((RISK_LEVELS as readonly string[]).includes(v)) return 'risk';
  return undefined;
}

function rankOf(v: string): number {
  const d = (DATA_LEVELS as readonly string[]).indexOf(v);
  return d >= 0 ? d + 1 : (RISK_LEVELS as readonly string[]).indexOf(v) + 1;
}

/** Why `attr op literal` can never hold, or undefined when some value of the attribute makes it true. */
function literalMismatch(op: ComparisonOp, L: AttributeType, value: LiteralValue): string | undefined {
  if (isAny(L)) return undefined;
  const kind = literalKind(value);
  switch (op) {
    case 'equals':
      if (kind === 'array') {
        if (!L.kinds.has('array')) return `the attribute is ${describe(L)}, never a list`;
        return valuesOutside(L.items, value as readonly string[]);
      }
      if (!has(L, kind)) return `the attribute is ${describe(L)}, never a ${kind}`;
      if (L.values && !L.values.has(value as string)) return `it is always one of ${list(L.values)}`;
      if (
        typeof value === 'number' &&
        ((L.min !== undefined && value < L.min) || (L.max !== undefined && value > L.max))
      ) {
        return `the attribute lies in [${L.min ?? '-∞'}, ${L.max ?? '∞'}]`;
      }
      return undefined;
    case 'in':
      if (!has(L, 'string')) return `"in" takes a string attribute; this one is ${describe(L)}`;
      if (L.values && !(value as readonly string[]).some((v) => L.values?.has(v))) {
        return `it is always one of ${list(L.values)}`;
      }
      return undefined;
    case 'subsetOf':
      if (!L.kinds.has('array')) return `"subsetOf" takes a list attribute; this one is ${describe(L)}`;
      if (L.items && !isAny(L.items) && !L.items.kinds.has('string')) {
        return `its elements are ${describe(L.items)}, never strings (only an empty list would match)`;
      }
      if (disjoint(L.items?.values, new Set(value as readonly string[]))) {
        return `its elements are always among ${list(L.items!.values!)} (only an empty list would match)`;
      }
      return undefined;
    case 'contains': {
      if (!L.kinds.has('array')) return `"contains" takes a list attribute; this one is ${describe(L)}`;
      const items = L.items;
      if (!items || isAny(items)) return undefined;
      if (!items.kinds.has(kind)) return `its elements are ${describe(items)}, never a ${kind}`;
      if (items.values && !items.values.has(value as string))
        return `its elements are always among ${list(items.values)}`;
      return undefined;
    }
    default: {
      if (!L.kinds.has('number')) return `"${op}" compares numbers; the attribute is ${describe(L)}`;
      let n: number;
      if (typeof value === 'string') {
        const lv = levelOfName(value);
        if (!L.level) return `the attribute is a plain number; "${value}" is a level name`;
        if (lv !== L.level) return `the attribute is ${describe(L)}; "${value}" is not one of its levels`;
        n = rankOf(value);
      } else n = value as number;
      const min = L.min ?? Number.NEGATIVE_INFINITY;
      const max = L.max ?? Number.POSITIVE_INFINITY;
      const possible = op === 'lt' ? min < n : op === 'lte' ? min <= n : op === 'gt' ? max > n : max >= n;
      if (!possible) return `the attribute lies in [${L.min ?? '-∞'}, ${L.max ?? '∞'}]`;
      return undefined;
    }
  }
}

function refMismatch(op: ComparisonOp, L: AttributeType, R: AttributeType): string | undefined {
  if (isAny(L) || isAny(R)) return undefined;
  const scalars = (t: AttributeType) => [...t.kinds].filter((k) => k !== 'array' && k !== 'object');
  const meets = (a: AttributeType, b: AttributeType) => scalars(a).some((k) => b.kinds.has(k));
  switch (op) {
    case 'equals':
      if (L.kinds.has('array') && R.kinds.has('array')) return itemsClash(L, R);
      if (!meets(L, R)) return `${describe(L)} is never equal to ${describe(R)}`;
      if (disjoint(L.values, R.values))
        return `their values never meet (${list(L.values!)} vs ${list(R.values!)})`;
      return levelClash(L, R);
    case 'in':
      if (!R.kinds.has('array')) return `"in" needs a list on the right; it is ${describe(R)}`;
      if (R.items && !isAny(R.items) && !meets(L, R.items))
        return `${describe(L)} is never an element of ${describe(R)}`;
      if (disjoint(L.values, R.items?.values)) return `its values never meet the list's (${list(L.values!)})`;
      return undefined;
    case 'subsetOf':
      if (!L.kinds.has('array') || !R.kinds.has('array')) return '"subsetOf" compares two lists';
      return itemsClash(L, R);
    case 'contains':
      if (!L.kinds.has('array')) return `"contains" needs a list on the left; it is ${describe(L)}`;
      if (L.items && !isAny(L.items) && !meets(R, L.items))
        return `${describe(R)} is never an element of ${describe(L)}`;
      if (disjoint(R.values, L.items?.values)) return `its values never meet the list's (${list(R.values!)})`;
      return undefined;
    default:
      if (!L.kinds.has('number') || !R.kinds.has('number')) return `"${op}" compares numbers`;
      return levelClash(L, R);
  }
}

/** Lists whose elements can never be alike (they would be equal only when both are empty). */
function itemsClash(L: AttributeType, R: AttributeType): string | undefined {
  const a = L.items;
  const b = R.items;
  if (!a || !b || isAny(a) || isAny(b)) return undefined;
  if (![...a.kinds].some((k) => b.kinds.has(k))) {
    return `${describe(L)} and ${describe(R)} never hold the same elements (only two empty lists would match)`;
  }
  return undefined;
}

function disjoint(a: ReadonlySet<unknown> | undefined, b: ReadonlySet<unknown> | undefined): boolean {
  return !!a && !!b && ![...a].some((v) => b.has(v));
}

function levelClash(L: AttributeType, R: AttributeType): string | undefined {
  if (L.level && R.level && L.level !== R.level)
    return `${describe(L)} and ${describe(R)} are different scales`;
  return undefined;
}

function valuesOutside(items: AttributeType | undefined, values: readonly string[]): string | undefined {
  if (!items || isAny(items)) return undefined;
  if (values.length > 0 && !items.kinds.has('string'))
    return `its elements are ${describe(items)}, never strings`;
  const outside = items.values ? values.filter((v) => !items.values?.has(v)) : [];
  return outside.length > 0
    ? `${list(new Set(outside))} can never be an element (always among ${list(items.values!)})`
    : undefined;
}

function list(values: ReadonlySet<unknown>): string {
  const all = [...values].map((v) => JSON.stringify(v));
  return all.length > 8 ? `${all.slice(0, 8).join(', ')}, …` : all.join(', ');
}

// ---- can the condition be true / false at all --------------------------------------------------

function reach(cond: Condition, scope: ConditionScope): Reach {
  if ('all' in cond) {
    const parts = cond.all.map((c) => reach(c, scope));
    const never = parts.find((p) => !p.canBeTrue);
    const canFalse = parts.some((p) => p.canBeFalse);
    return {
      canBeTrue: !never,
      canBeFalse: canFalse,
      ...(never?.whyNeverTrue ? { whyNeverTrue: never.whyNeverTrue } : {}),
      ...(!canFalse && parts[0]?.whyNeverFalse ? { whyNeverFalse: parts[0].whyNeverFalse } : {}),
    };
  }
  if ('any' in cond) {
    const parts = cond.any.map((c) => reach(c, scope));
    const canTrue = parts.some((p) => p.canBeTrue);
    const always = parts.find((p) => !p.canBeFalse);
    return {
      canBeTrue: canTrue,
      canBeFalse: !always,
      ...(!canTrue && parts[0]?.whyNeverTrue ? { whyNeverTrue: parts[0].whyNeverTrue } : {}),
      ...(always?.whyNeverFalse ? { whyNeverFalse: always.whyNeverFalse } : {}),
    };
  }
  if ('not' in cond) {
    const inner = reach(cond.not, scope);
    return {
      canBeTrue: inner.canBeFalse,
      canBeFalse: inner.canBeTrue,
      ...(inner.whyNeverFalse ? { whyNeverTrue: inner.whyNeverFalse } : {}),
      ...(inner.whyNeverTrue ? { whyNeverFalse: inner.whyNeverTrue } : {}),
    };
  }
  return atomReach(cond, scope);
}

/** Can one (type-correct) atom be true, and be false? Exact for enumerable and bounded attributes. */
function atomReach(atom: Atom, scope: ConditionScope): Reach {
  const found = attributeType(atom.attr, scope);
  if (!('type' in found)) return { canBeTrue: true, canBeFalse: true };
  const L = found.type;
  const lhs = atom.attr.join('.');
  const site = atom.at ? { site: atom.at } : {};
  const always = (message: string): Reach => ({
    canBeTrue: true,
    canBeFalse: false,
    whyNeverFalse: { message, ...site },
  });
  if ('exists' in atom)
    return L.optional ? { canBeTrue: true, canBeFalse: true } : always(`${lhs} is always present`);
  // An absent attribute makes every comparison false.
  const canBeFalse = L.optional || isAny(L);
  const { op, operand } = atom;
  if ('ref' in operand) {
    if (operand.ref.join('.') !== lhs) return { canBeTrue: true, canBeFalse: true };
    // A value compared with itself.
    if (op === 'lt' || op === 'gt') {
      return {
        canBeTrue: false,
        canBeFalse: true,
        whyNeverTrue: { message: `${lhs} is never ${op} itself`, ...site },
      };
    }
    if (op === 'equals' || op === 'subsetOf' || op === 'lte' || op === 'gte') {
      return canBeFalse ? { canBeTrue: true, canBeFalse: true } : always(`${lhs} always ${op} itself`);
    }
    return { canBeTrue: true, canBeFalse: true };
  }
  if (canBeFalse) return { canBeTrue: true, canBeFalse: true };
  const value = operand.value;
  const scalarValues: readonly unknown[] | undefined = L.values
    ? [...L.values]
    : L.kinds.size === 1 && L.kinds.has('boolean')
      ? [true, false]
      : undefined;
  if (scalarValues && (op === 'equals' || op === 'in')) {
    const holds = (v: unknown) => (op === 'equals' ? v === value : (value as readonly unknown[]).includes(v));
    if (!Array.isArray(value) || op === 'in') {
      if (scalarValues.every(holds))
        return always(`${lhs} is always ${op === 'in' ? 'in the list' : JSON.stringify(value)}`);
    }
    return { canBeTrue: true, canBeFalse: true };
  }
  if (ORDERING.has(op) && typeof value !== 'boolean' && !Array.isArray(value)) {
    const n = typeof value === 'string' ? rankOf(value) : (value as number);
    const min = L.min ?? Number.NEGATIVE_INFINITY;
    const max = L.max ?? Number.POSITIVE_INFINITY;
    const tautology = op === 'gte' ? min >= n : op === 'gt' ? min > n : op === 'lte' ? max <= n : max < n;
    if (tautology)
      return always(`${lhs} lies in [${L.min ?? '-∞'}, ${L.max ?? '∞'}], so it is always ${op} ${n}`);
  }
  return { canBeTrue: true, canBeFalse: true };
}
