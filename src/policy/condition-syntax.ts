import { DATA_LEVELS } from '../core/index.js';
import { RISK_LEVELS } from '../tools/index.js';
import { failAt, isRecord, type RuleCursor } from './document-context.js';
import { TOOL_ATTRIBUTES } from './environment.js';
import {
  type AttributePath,
  COMPARISON_OPS,
  type ComparisonOp,
  type Condition,
  type ConditionSite,
  type Operand,
} from './types.js';

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Level names an ordering literal may use: data levels and risk levels (ranked 1..4). */
const LEVEL_NAMES = [...DATA_LEVELS, ...RISK_LEVELS];
const ROOTS = ['principal', 'tool', 'args'] as const;

/** True when a string operand names an attribute rather than a literal. */
export function looksLikePath(s: string): boolean {
  return ROOTS.some((r) => s.startsWith(`${r}.`));
}

/** Parses and checks `principal.x`, `tool.x` or `args.a.b`. */
export function parsePath(cur: RuleCursor, rel: readonly (string | number)[], raw: unknown): AttributePath {
  if (typeof raw !== 'string') failAt(cur, rel, 'must be an attribute path such as "args.user"');
  const parts = raw.split('.');
  const [root, ...rest] = parts;
  if (!(ROOTS as readonly string[]).includes(root as string) || rest.length === 0) {
    failAt(cur, rel, `unknown attribute path "${raw}" (must start with principal., tool. or args.)`);
  }
  if (rest.some((p) => !IDENT.test(p))) failAt(cur, rel, `attribute path "${raw}" has an invalid segment`);
  if (root === 'principal' && rest.length !== 1) failAt(cur, rel, `"${raw}": principal attributes are flat`);
  if (
    root === 'tool' &&
    (rest.length !== 1 || !(TOOL_ATTRIBUTES as readonly string[]).includes(rest[0] as string))
  ) {
    failAt(cur, rel, `"${raw}": tool attributes are ${TOOL_ATTRIBUTES.join(', ')}`);
  }
  return parts;
}

const CONDITION_KEYS = ['all', 'any', 'not', 'attr', 'exists', ...COMPARISON_OPS];

/** Parses the YAML form of a condition into the typed `Condition`. */
export function parseCondition(cur: RuleCursor, rel: readonly (string | number)[], raw: unknown): Condition {
  if (!isRecord(raw)) failAt(cur, rel, 'a condition must be a mapping');
  const keys = Object.keys(raw);
  const unknown = keys.find((k) => !CONDITION_KEYS.includes(k));
  if (unknown) failAt(cur, [...rel, unknown], `unknown condition key "${unknown}"`);
  for (const combinator of ['all', 'any'] as const) {
    if (combinator in raw) {
      if (keys.length !== 1) failAt(cur, rel, `"${combinator}" must be the only key of its condition`);
      const list = raw[combinator];
      if (!Array.isArray(list) || list.length === 0) {
        failAt(cur, [...rel, combinator], 'must be a non-empty list of conditions');
      }
      const parts = list.map((c, i) => parseCondition(cur, [...rel, combinator, i], c));
      return combinator === 'all' ? { all: parts } : { any: parts };
    }
  }
  if ('not' in raw) {
    if (keys.length !== 1) failAt(cur, rel, '"not" must be the only key of its condition');
    return { not: parseCondition(cur, [...rel, 'not'], raw.not) };
  }
  if (!('attr' in raw)) failAt(cur, rel, 'a condition needs "attr" (or all / any / not)');
  const attr = parsePath(cur, [...rel, 'attr'], raw.attr);
  const ops = keys.filter((k) => k !== 'attr');
  if (ops.length !== 1) {
    failAt(cur, rel, `needs exactly one operator (${['exists', ...COMPARISON_OPS].join(', ')})`);
  }
  const op = ops[0] as string;
  const at = siteOf(cur, [...rel, op]);
  if (op === 'exists') {
    if (raw.exists !== true) failAt(cur, [...rel, 'exists'], 'must be true (use "not" for absence)');
    return { attr, exists: true, at };
  }
  const operand = parseOperand(cur, [...rel, op], op as ComparisonOp, raw[op]);
  return { attr, op: op as ComparisonOp, operand, at };
}

/** The field (relative to the rule) and line of an operator, so a later type check can name them. */
function siteOf(cur: RuleCursor, rel: readonly (string | number)[]): ConditionSite {
  const line = cur.ctx.lineOf([...cur.base, ...rel]);
  return { field: rel.join('.'), ...(line !== undefined ? { line } : {}) };
}

function parseOperand(
  cur: RuleCursor,
  rel: readonly (string | number)[],
  op: ComparisonOp,
  raw: unknown,
): Operand {
  if (typeof raw === 'string' && looksLikePath(raw)) return { ref: parsePath(cur, rel, raw) };
  // { value: "principal.x" } escapes a literal that would otherwise read as a path
  const value = isRecord(raw) && Object.keys(raw).length === 1 && 'value' in raw ? raw.value : raw;
  const isList = Array.isArray(value);
  if (op === 'in' || op === 'subsetOf') {
    if (!isList || value.some((x) => typeof x !== 'string')) {
      failAt(cur, rel, `"${op}" takes a list of strings or an attribute path`);
    }
    return { value: value as string[] };
  }
  if (op === 'lte' || op === 'gte' || op === 'lt' || op === 'gt') {
    // Any other string could never be ordered against anything: the atom would be dead.
    const level = typeof value === 'string' && (LEVEL_NAMES as readonly string[]).includes(value);
    if (!(Number.isInteger(value) || level)) {
      failAt(
        cur,
        rel,
        `"${op}" takes an integer, a level (L1-L4, low-critical) or an attribute path, not ${JSON.stringify(value)}`,
      );
    }
    return { value: value as number | string };
  }
  if (op === 'contains') {
    if (!(typeof value === 'string' || Number.isInteger(value) || typeof value === 'boolean')) {
      failAt(cur, rel, '"contains" takes a single string, integer or boolean');
    }
    return { value: value as string | number | boolean };
  }
  // equals
  if (isList) {
    if (value.some((x) => typeof x !== 'string')) failAt(cur, rel, 'a list literal must hold strings');
    return { value: value as string[] };
  }
  if (!(typeof value === 'string' || Number.isInteger(value) || typeof value === 'boolean')) {
    failAt(cur, rel, '"equals" takes a string, integer, boolean, list of strings or attribute path');
  }
  return { value: value as string | number | boolean };
}
