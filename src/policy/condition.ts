import { DATA_LEVELS } from '../core/index.js';
import { RISK_LEVELS } from '../tools/index.js';
import type { DecisionEnv } from './environment.js';
import type { AttributePath, ComparisonOp, Condition, Operand } from './types.js';

/** A condition compiled to a closure: no string is interpreted at decision time. */
export type CompiledCondition = (env: DecisionEnv) => boolean;
type Getter = (env: DecisionEnv) => unknown;

/** Compiles a path into a getter. Paths were validated on load, so the roots are known. */
export function compilePath(path: AttributePath): Getter {
  const [root, first, ...rest] = path;
  if (root === 'principal') {
    switch (first) {
      case 'user':
        return (e) => e.p.user;
      case 'tenant':
        return (e) => e.p.tenant;
      case 'roles':
        return (e) => e.p.roles;
      case 'dataLevel':
        return (e) => e.p.dataLevel;
      default: {
        const name = first as string;
        return (e) => (Object.hasOwn(e.p.attrs, name) ? e.p.attrs[name] : undefined);
      }
    }
  }
  if (root === 'tool') {
    switch (first) {
      case 'name':
        return (e) => e.t.name;
      case 'category':
        return (e) => e.t.category;
      case 'risk':
        return (e) => e.t.risk;
      case 'dataLevel':
        return (e) => e.t.dataLevel;
      default:
        return (e) => e.t.allowedRoles;
    }
  }
  // args.*: walk own properties only, so `__proto__` or `constructor` never resolve.
  const keys = [first as string, ...rest];
  if (keys.length === 1) {
    const k = keys[0] as string;
    return (e) => ownProp(e.args, k);
  }
  return (e) => {
    let cur: unknown = e.args;
    for (const k of keys) {
      cur = ownProp(cur, k);
      if (cur === undefined) return undefined;
    }
    return cur;
  };
}

function ownProp(obj: unknown, key: string): unknown {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return undefined;
  if (!Object.hasOwn(obj, key)) return undefined;
  // null is "absent", as in the Cedar request where null-valued keys are dropped
  const v = (obj as Record<string, unknown>)[key];
  return v === null ? undefined : v;
}

/** Level names (`L3`, `high`) become ranks so `lte`/`gte` compare numbers, like Cedar Longs. */
export function literalRank(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const d = (DATA_LEVELS as readonly string[]).indexOf(value);
  if (d >= 0) return d + 1;
  const r = (RISK_LEVELS as readonly string[]).indexOf(value);
  if (r >= 0) return r + 1;
  return value;
}

function compileOperand(op: ComparisonOp, operand: Operand): Getter {
  if ('ref' in operand) return compilePath(operand.ref);
  const v = isOrdering(op) ? literalRank(operand.value) : operand.value;
  return () => v;
}

function isOrdering(op: ComparisonOp): boolean {
  return op === 'lte' || op === 'gte' || op === 'lt' || op === 'gt';
}

const isScalar = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** Cedar `==`: sets compare as sets, scalars by value, different types are unequal. */
function equalValues(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.every((x) => b.includes(x)) && b.every((x) => a.includes(x));
  }
  return isScalar(a) && a === b;
}

const COMPARATORS: Record<ComparisonOp, (l: unknown, r: unknown) => boolean> = {
  equals: equalValues,
  in: (l, r) => Array.isArray(r) && isScalar(l) && r.includes(l),
  subsetOf: (l, r) => Array.isArray(l) && Array.isArray(r) && l.every((x) => r.includes(x)),
  contains: (l, r) => Array.isArray(l) && isScalar(r) && l.includes(r),
  lte: (l, r) => typeof l === 'number' && typeof r === 'number' && l <= r,
  gte: (l, r) => typeof l === 'number' && typeof r === 'number' && l >= r,
  lt: (l, r) => typeof l === 'number' && typeof r === 'number' && l < r,
  gt: (l, r) => typeof l === 'number' && typeof r === 'number' && l > r,
};

/** Compiles a validated condition into one closure. */
export function compileCondition(cond: Condition): CompiledCondition {
  if ('all' in cond) {
    const parts = cond.all.map(compileCondition);
    if (parts.length === 1) return parts[0] as CompiledCondition;
    return (e) => {
      for (const p of parts) if (!p(e)) return false;
      return true;
    };
  }
  if ('any' in cond) {
    const parts = cond.any.map(compileCondition);
    return (e) => {
      for (const p of parts) if (p(e)) return true;
      return false;
    };
  }
  if ('not' in cond) {
    const inner = compileCondition(cond.not);
    return (e) => !inner(e);
  }
  const left = compilePath(cond.attr);
  if ('exists' in cond) return (e) => left(e) !== undefined;
  const right = compileOperand(cond.op, cond.operand);
  const cmp = COMPARATORS[cond.op];
  return (e) => {
    const l = left(e);
    if (l === undefined) return false;
    const r = right(e);
    return r !== undefined && cmp(l, r);
  };
}
