import { canonicalJson } from '../core/index.js';
import { PolicyConfigError } from './errors.js';
import { splitSource } from './policy-check.js';
import { DEFAULT_THIRD_PARTY } from './policy-document.js';
import type { ArgumentConstraint, ParameterConfig, PolicyDocument } from './types.js';

const CONSTRAINT_KINDS = ['scope', 'date', 'number', 'oneOf'] as const;

function conflict(
  at: string | undefined,
  fallback: string,
  rule: string,
  field: string,
  message: string,
): never {
  const { file, line } = splitSource(at, fallback);
  throw new PolicyConfigError({ file, rule, field, ...(line !== undefined ? { line } : {}) }, message);
}

/**
 * Several policy documents as one — the only merge every door uses (`serve`, `run`, the
 * stream-json engine, `check`, reviews, eval). Rules are concatenated in order; a rule id may
 * appear in one file only (RBAC `grant.<role>` rules excepted: grants add up). Parameter
 * constraints merge per tool and argument: different constraint kinds on one argument combine
 * (a date window from one file, a `oneOf` from another); the same kind declared differently in
 * two files is an error naming both, never "the later file wins". `thirdParty` likewise.
 */
export function mergePolicyDocuments(docs: readonly PolicyDocument[]): PolicyDocument {
  if (docs.length === 1) return docs[0] as PolicyDocument;
  const seen = new Map<string, string>();
  for (const d of docs) {
    const file = d.source ?? '(policy)';
    for (const r of d.rules) {
      if (r.id.startsWith('grant.')) continue;
      const first = seen.get(r.id);
      if (first !== undefined) {
        conflict(r.source, file, r.id, 'id', `duplicate rule id, also declared in ${first}`);
      }
      seen.set(r.id, r.source ?? file);
    }
  }
  const tools: Record<string, Record<string, ArgumentConstraint>> = {};
  for (const d of docs) {
    const file = d.source ?? '(policy)';
    for (const [tool, args] of Object.entries(d.parameters.tools)) {
      const merged = tools[tool] ?? {};
      tools[tool] = merged;
      for (const [arg, c] of Object.entries(args)) {
        const had = merged[arg];
        merged[arg] = had ? mergeConstraint(tool, arg, had, c, file) : c;
      }
    }
  }
  let thirdParty: ParameterConfig['thirdParty'] = DEFAULT_THIRD_PARTY;
  let thirdPartySource: string | undefined;
  for (const d of docs) {
    const at = d.parameters.thirdPartySource;
    if (at === undefined) continue;
    if (
      thirdPartySource !== undefined &&
      canonicalJson(thirdParty) !== canonicalJson(d.parameters.thirdParty)
    ) {
      conflict(
        at,
        d.source ?? '(policy)',
        'parameters',
        'thirdParty',
        `declared differently in ${thirdPartySource}`,
      );
    }
    thirdParty = d.parameters.thirdParty;
    thirdPartySource ??= at;
  }
  return {
    rules: docs.flatMap((d) => d.rules),
    parameters: { tools, thirdParty, ...(thirdPartySource ? { thirdPartySource } : {}) },
    source: docs.map((d) => d.source ?? '(policy)').join(', '),
  };
}

function mergeConstraint(
  tool: string,
  arg: string,
  a: ArgumentConstraint,
  b: ArgumentConstraint,
  file: string,
): ArgumentConstraint {
  const out: { -readonly [K in keyof ArgumentConstraint]: ArgumentConstraint[K] } = { ...a };
  for (const kind of CONSTRAINT_KINDS) {
    const next = b[kind];
    if (next === undefined) continue;
    const prev = a[kind];
    if (prev !== undefined && canonicalJson(prev) !== canonicalJson(next)) {
      conflict(
        b.source,
        file,
        `parameters.${tool}`,
        `${arg}.${kind}`,
        `conflicts with the ${kind} constraint declared in ${a.source ?? 'another file'}`,
      );
    }
    (out as Record<string, unknown>)[kind] = next;
  }
  return out;
}
