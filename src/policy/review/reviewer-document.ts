import type { Identity } from '../../core/index.js';
import type { PolicySchema } from '../attribute-schema.js';
import { type CompiledCondition, compileCondition } from '../condition.js';
import { parseCondition } from '../condition-syntax.js';
import {
  DocumentContext,
  failAt,
  isRecord,
  type LineLocator,
  type RuleCursor,
  stringList,
} from '../document-context.js';
import { principalView, type ToolView, toolView } from '../environment.js';
import { checkWhen } from '../policy-check.js';
import type { Condition, ToolFacts } from '../types.js';

/** A rule-based reviewer: when its condition holds for a pending review, it decides it. */
export interface ReviewerRule {
  readonly id: string;
  readonly tools: readonly string[];
  readonly decision: 'approve' | 'deny';
  readonly reason: string;
  readonly when?: Condition;
  /** Where it was declared (`file:line`). */
  readonly source?: string;
}

/** What a reviewer looks at: the original call, as persisted in the review. */
export interface ReviewSubject {
  readonly tool: string;
  readonly args: unknown;
  readonly identity: Identity;
  readonly facts?: ToolFacts;
}

export interface ReviewerVerdict {
  readonly decision: 'approve' | 'deny';
  readonly ruleId: string;
  readonly reason: string;
}

/**
 * Where a requester may approve their own review (a one-person team). Four-eyes is the default:
 * without a matching rule the requester's own approval is refused.
 */
export interface SelfApprovalRule {
  readonly id: string;
  readonly tools: readonly string[];
  readonly reason: string;
  readonly when?: Condition;
}

/** Compiled reviewers. `decide` returns undefined when no reviewer applies (a human decides). */
export interface ReviewerSet {
  readonly rules: readonly ReviewerRule[];
  readonly selfApprovalRules?: readonly SelfApprovalRule[];
  decide(subject: ReviewSubject): ReviewerVerdict | undefined;
  /** The rule that lets this review's requester approve it themselves, if any. */
  selfApproval?(subject: ReviewSubject): { readonly ruleId: string; readonly reason: string } | undefined;
}

const KEYS = ['id', 'tools', 'decision', 'reason', 'when'];
const SELF_KEYS = ['id', 'tools', 'reason', 'when'];
const TOP_KEYS = ['version', 'reviewers', 'selfApproval'];

/**
 * Validates a reviewers document and compiles it. Deny reviewers are tried before approvals. With
 * a schema, each reviewer's tools must exist and its condition must type-check against them and
 * be able to hold (a deny reviewer that never matches would wave through what it should stop).
 */
export function parseReviewerDocument(
  raw: unknown,
  file: string,
  locate?: LineLocator,
  schema?: PolicySchema,
): ReviewerSet {
  const ctx = new DocumentContext(file, locate);
  const top: RuleCursor = { ctx, rule: '(document)', base: [] };
  if (!isRecord(raw)) failAt(top, [], 'a reviewers file must be a mapping');
  if (raw.version !== 1) failAt(top, ['version'], 'must be 1');
  for (const k of Object.keys(raw)) if (!TOP_KEYS.includes(k)) failAt(top, [k], `unknown field "${k}"`);
  const list = raw.reviewers ?? [];
  if (!Array.isArray(list)) failAt(top, ['reviewers'], 'must be a list');
  const ids = new Set<string>();
  const rules = list.map((r, i): ReviewerRule => {
    const cur: RuleCursor = {
      ctx,
      rule: isRecord(r) && typeof r.id === 'string' ? r.id : `#${i}`,
      base: ['reviewers', i],
    };
    if (!isRecord(r)) failAt(cur, [], 'a reviewer must be a mapping');
    for (const k of Object.keys(r)) if (!KEYS.includes(k)) failAt(cur, [k], `unknown field "${k}"`);
    if (typeof r.id !== 'string' || r.id.length === 0) failAt(cur, ['id'], 'every reviewer needs an id');
    if (ids.has(r.id)) failAt(cur, ['id'], 'duplicate reviewer id');
    ids.add(r.id);
    if (r.decision !== 'approve' && r.decision !== 'deny')
      failAt(cur, ['decision'], 'must be approve or deny');
    if (typeof r.reason !== 'string') failAt(cur, ['reason'], 'must say why (a string)');
    const tools = stringList(cur, ['tools'], r.tools);
    const when = r.when !== undefined ? parseCondition(cur, ['when'], r.when) : undefined;
    const line = ctx.lineOf(cur.base);
    const source = line !== undefined ? `${file}:${line}` : file;
    if (schema) {
      const unknown = tools.filter((t) => !schema.tools.has(t));
      if (unknown.length > 0) {
        failAt(
          cur,
          ['tools'],
          `unknown tool ${unknown.map((t) => JSON.stringify(t)).join(', ')}: the reviewer would never apply`,
        );
      }
      if (when) checkWhen(when, { schema, tools }, source, file, r.id);
    }
    return { id: r.id, tools, decision: r.decision, reason: r.reason, source, ...(when ? { when } : {}) };
  });
  const selfList = raw.selfApproval ?? [];
  if (!Array.isArray(selfList)) failAt(top, ['selfApproval'], 'must be a list');
  const selfRules = selfList.map((r, i): SelfApprovalRule => {
    const cur: RuleCursor = {
      ctx,
      rule: isRecord(r) && typeof r.id === 'string' ? r.id : `#${i}`,
      base: ['selfApproval', i],
    };
    if (!isRecord(r)) failAt(cur, [], 'a self-approval rule must be a mapping');
    for (const k of Object.keys(r)) if (!SELF_KEYS.includes(k)) failAt(cur, [k], `unknown field "${k}"`);
    if (typeof r.id !== 'string' || r.id.length === 0) failAt(cur, ['id'], 'every rule needs an id');
    if (ids.has(r.id)) failAt(cur, ['id'], 'duplicate rule id');
    ids.add(r.id);
    if (typeof r.reason !== 'string') failAt(cur, ['reason'], 'must say why (a string)');
    const tools = stringList(cur, ['tools'], r.tools);
    if (tools.length === 0) failAt(cur, ['tools'], 'name the tools a requester may approve alone');
    return {
      id: r.id,
      tools,
      reason: r.reason,
      ...(r.when !== undefined ? { when: parseCondition(cur, ['when'], r.when) } : {}),
    };
  });
  return compileReviewers(rules, selfRules);
}

/** Compiles reviewer rules to closures. */
export function compileReviewers(
  rules: readonly ReviewerRule[],
  selfApprovalRules: readonly SelfApprovalRule[] = [],
): ReviewerSet {
  const compiled = [...rules]
    .sort((a, b) => (a.decision === b.decision ? 0 : a.decision === 'deny' ? -1 : 1))
    .map((r) => ({ r, tools: new Set(r.tools), test: r.when ? compileCondition(r.when) : undefined }));
  const selfCompiled = selfApprovalRules.map((r) => ({
    r,
    tools: new Set(r.tools),
    test: r.when ? compileCondition(r.when) : undefined,
  }));
  const envOf = (subject: ReviewSubject) => {
    const t: ToolView = subject.facts
      ? toolView(subject.facts)
      : { name: subject.tool, category: '', risk: 0, dataLevel: 0, allowedRoles: [] };
    return { p: principalView(subject.identity), t, args: subject.args };
  };
  return {
    rules,
    selfApprovalRules,
    decide(subject) {
      const env = envOf(subject);
      for (const c of compiled) {
        if (!c.tools.has(subject.tool)) continue;
        if (c.test && !(c.test as CompiledCondition)(env)) continue;
        return { decision: c.r.decision, ruleId: c.r.id, reason: c.r.reason };
      }
      return undefined;
    },
    selfApproval(subject) {
      const env = envOf(subject);
      for (const c of selfCompiled) {
        if (!c.tools.has(subject.tool)) continue;
        if (c.test && !(c.test as CompiledCondition)(env)) continue;
        return { ruleId: c.r.id, reason: c.r.reason };
      }
      return undefined;
    },
  };
}
