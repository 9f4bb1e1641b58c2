import { RISK_LEVELS, type RiskLevel } from '../tools/index.js';
import { parseCondition, parsePath } from './condition-syntax.js';
import {
  DocumentContext,
  failAt,
  isRecord,
  type LineLocator,
  type RuleCursor,
  stringList,
} from './document-context.js';
import type {
  ArgumentConstraint,
  ParameterConfig,
  PolicyDocument,
  PolicyRule,
  ScopeConstraint,
} from './types.js';

const RULE_KEYS = ['id', 'effect', 'description', 'roles', 'tenants', 'tools', 'categories', 'when'];
const TOP_KEYS = ['version', 'grants', 'rules', 'parameters'];
const RULE_ID = /^[A-Za-z0-9_.:-]+$/;

export const DEFAULT_THIRD_PARTY = { minRisk: 'high' as RiskLevel, minRun: 16 };

/**
 * Validates a parsed policy document (see docs/policy.md) and expands RBAC grants into `allow`
 * rules named `grant.<role>`. Pure: the loader hands in the parsed YAML and a line locator.
 */
export function parsePolicyDocument(raw: unknown, file: string, locate?: LineLocator): PolicyDocument {
  const ctx = new DocumentContext(file, locate);
  const top: RuleCursor = { ctx, rule: '(document)', base: [] };
  if (!isRecord(raw)) failAt(top, [], 'a policy file must be a mapping');
  for (const k of Object.keys(raw)) if (!TOP_KEYS.includes(k)) failAt(top, [k], `unknown section "${k}"`);
  if (raw.version !== 1) failAt(top, ['version'], 'must be 1');

  const rules: PolicyRule[] = [];
  const ids = new Set<string>();
  const grants = raw.grants ?? {};
  if (!isRecord(grants)) failAt(top, ['grants'], 'must map role names to category lists');
  for (const [role, cats] of Object.entries(grants)) {
    const id = `grant.${role}`;
    const cur: RuleCursor = { ctx, rule: id, base: ['grants', role] };
    const categories = stringList(cur, [], cats);
    ids.add(id);
    rules.push({
      id,
      effect: 'allow',
      description: `role ${role} is granted ${categories.join(', ')}`,
      roles: [role],
      categories,
      source: lineSource(ctx, ['grants', role]),
    });
  }

  const list = raw.rules ?? [];
  if (!Array.isArray(list)) failAt(top, ['rules'], 'must be a list of rules');
  list.forEach((r, i) => {
    const rule = parseRule(ctx, r, i);
    if (ids.has(rule.id)) failAt({ ctx, rule: rule.id, base: ['rules', i] }, ['id'], 'duplicate rule id');
    ids.add(rule.id);
    rules.push(rule);
  });

  return { rules, parameters: parseParameters(ctx, raw.parameters), source: file };
}

function lineSource(ctx: DocumentContext, path: readonly (string | number)[]): string {
  const line = ctx.lineOf(path);
  return line !== undefined ? `${ctx.file}:${line}` : ctx.file;
}

function parseRule(ctx: DocumentContext, raw: unknown, index: number): PolicyRule {
  const base = ['rules', index];
  const rawId = isRecord(raw) ? raw.id : undefined;
  const cur: RuleCursor = { ctx, rule: typeof rawId === 'string' ? rawId : `#${index}`, base };
  if (!isRecord(raw)) failAt(cur, [], 'a rule must be a mapping');
  for (const k of Object.keys(raw)) if (!RULE_KEYS.includes(k)) failAt(cur, [k], `unknown field "${k}"`);
  if (typeof rawId !== 'string' || !RULE_ID.test(rawId)) {
    failAt(cur, ['id'], 'every rule needs an id of letters, digits and . _ : -');
  }
  if (rawId.startsWith('policy.') || rawId.startsWith('manifest.') || rawId.startsWith('grant.')) {
    failAt(cur, ['id'], 'ids starting with policy., manifest. or grant. are reserved');
  }
  if (raw.effect !== 'allow' && raw.effect !== 'deny') failAt(cur, ['effect'], 'must be "allow" or "deny"');
  const rule: {
    -readonly [K in keyof PolicyRule]: PolicyRule[K];
  } = { id: rawId, effect: raw.effect, source: lineSource(ctx, base) };
  if (raw.description !== undefined) {
    if (typeof raw.description !== 'string') failAt(cur, ['description'], 'must be a string');
    rule.description = raw.description;
  }
  for (const key of ['roles', 'tenants', 'tools', 'categories'] as const) {
    if (raw[key] !== undefined) rule[key] = stringList(cur, [key], raw[key]);
  }
  if (raw.when !== undefined) rule.when = parseCondition(cur, ['when'], raw.when);
  if (rule.effect === 'allow' && !rule.roles && !rule.when) {
    failAt(cur, ['roles'], 'an allow rule needs roles or a condition (an unconditional allow for everyone)');
  }
  return rule;
}

function parseParameters(ctx: DocumentContext, raw: unknown): ParameterConfig {
  const top: RuleCursor = { ctx, rule: 'parameters', base: ['parameters'] };
  if (raw === undefined) return { tools: {}, thirdParty: DEFAULT_THIRD_PARTY };
  if (!isRecord(raw)) failAt(top, [], 'must be a mapping');
  for (const k of Object.keys(raw)) {
    if (k !== 'tools' && k !== 'thirdParty') failAt(top, [k], `unknown field "${k}"`);
  }
  const thirdParty = { ...DEFAULT_THIRD_PARTY };
  if (raw.thirdParty !== undefined) {
    const tp = raw.thirdParty;
    if (!isRecord(tp)) failAt(top, ['thirdParty'], 'must be a mapping');
    if (tp.minRisk !== undefined) {
      if (!(RISK_LEVELS as readonly unknown[]).includes(tp.minRisk)) {
        failAt(top, ['thirdParty', 'minRisk'], `must be one of ${RISK_LEVELS.join(', ')}`);
      }
      thirdParty.minRisk = tp.minRisk as RiskLevel;
    }
    if (tp.minRun !== undefined) {
      if (!Number.isInteger(tp.minRun) || (tp.minRun as number) < 6) {
        failAt(top, ['thirdParty', 'minRun'], 'must be an integer >= 6');
      }
      thirdParty.minRun = tp.minRun as number;
    }
  }
  const tools: Record<string, Record<string, ArgumentConstraint>> = {};
  const rawTools = raw.tools ?? {};
  if (!isRecord(rawTools)) failAt(top, ['tools'], 'must map tool names to argument constraints');
  for (const [tool, args] of Object.entries(rawTools)) {
    const cur: RuleCursor = { ctx, rule: `parameters.${tool}`, base: ['parameters', 'tools', tool] };
    if (!isRecord(args)) failAt(cur, [], 'must map argument names to constraints');
    tools[tool] = {};
    for (const [arg, c] of Object.entries(args)) {
      (tools[tool] as Record<string, ArgumentConstraint>)[arg] = {
        ...parseArgumentConstraint(cur, [arg], c),
        source: lineSource(ctx, ['parameters', 'tools', tool, arg]),
      };
    }
  }
  return {
    tools,
    thirdParty,
    ...(raw.thirdParty !== undefined
      ? { thirdPartySource: lineSource(ctx, ['parameters', 'thirdParty']) }
      : {}),
  };
}

function parseArgumentConstraint(cur: RuleCursor, rel: string[], raw: unknown): ArgumentConstraint {
  if (!isRecord(raw)) failAt(cur, rel, 'must be a mapping of scope / date / number / oneOf');
  const out: { -readonly [K in keyof ArgumentConstraint]: ArgumentConstraint[K] } = {};
  for (const [k, v] of Object.entries(raw)) {
    const at = [...rel, k];
    if (k === 'scope') out.scope = parseScope(cur, at, v);
    else if (k === 'date') {
      if (!isRecord(v)) failAt(cur, at, 'must be a mapping');
      for (const [dk, dv] of Object.entries(v)) {
        if (!['maxDaysFromNow', 'maxDaysAgo', 'maxDaysAhead'].includes(dk)) {
          failAt(cur, [...at, dk], `unknown field "${dk}"`);
        }
        if (typeof dv !== 'number' || dv < 0)
          failAt(cur, [...at, dk], 'must be a non-negative number of days');
      }
      out.date = v as ArgumentConstraint['date'];
    } else if (k === 'number') {
      if (!isRecord(v)) failAt(cur, at, 'must be a mapping');
      for (const [nk, nv] of Object.entries(v)) {
        if (nk !== 'min' && nk !== 'max') failAt(cur, [...at, nk], `unknown field "${nk}"`);
        if (typeof nv !== 'number') failAt(cur, [...at, nk], 'must be a number');
      }
      out.number = v as ArgumentConstraint['number'];
    } else if (k === 'oneOf') {
      if (
        !Array.isArray(v) ||
        v.length === 0 ||
        v.some((x) => typeof x !== 'string' && typeof x !== 'number')
      ) {
        failAt(cur, at, 'must be a non-empty list of strings or numbers');
      }
      out.oneOf = v as (string | number)[];
    } else failAt(cur, at, `unknown constraint "${k}"`);
  }
  return out;
}

function parseScope(cur: RuleCursor, at: string[], raw: unknown): ScopeConstraint {
  if (!isRecord(raw)) failAt(cur, at, 'must be a mapping');
  for (const k of Object.keys(raw)) {
    if (!['within', 'wildcard', 'onOutside', 'exemptRoles'].includes(k)) {
      failAt(cur, [...at, k], `unknown field "${k}"`);
    }
  }
  const within = parsePath(cur, [...at, 'within'], raw.within);
  if (within[0] !== 'principal') failAt(cur, [...at, 'within'], 'must be a principal attribute');
  const onOutside = raw.onOutside ?? 'refuse';
  if (onOutside !== 'narrow' && onOutside !== 'refuse')
    failAt(cur, [...at, 'onOutside'], 'must be narrow or refuse');
  if (raw.wildcard !== undefined && typeof raw.wildcard !== 'string') {
    failAt(cur, [...at, 'wildcard'], 'must be a string');
  }
  return {
    within,
    onOutside,
    ...(raw.wildcard !== undefined ? { wildcard: raw.wildcard as string } : {}),
    ...(raw.exemptRoles !== undefined
      ? { exemptRoles: stringList(cur, [...at, 'exemptRoles'], raw.exemptRoles) }
      : {}),
  };
}
