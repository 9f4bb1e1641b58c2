import { compileCommandPattern } from './command-pattern.js';
import { compilePathPattern, type PathRoots, resolvePath, targetPathOf } from './path-pattern.js';
import { PATH_RULE_COVERAGE, type ParsedRule, parseRule, type RuleEffect } from './rule-parser.js';
import {
  FILE_READING_COMMANDS,
  isDestructiveShell,
  isReadOnlyShell,
  segmentIsReadOnly,
} from './shell-risk.js';
import { type SplitShellCommand, splitShellCommand } from './shell-split.js';
import { compileToolPattern, type ToolNameMatcher } from './tool-pattern.js';

/** Rules from one origin (a settings file, an agent definition, a session grant). */
export interface RuleSource {
  readonly source: string;
  readonly allow?: readonly string[];
  readonly ask?: readonly string[];
  readonly deny?: readonly string[];
}

/** A rule that could not be parsed; it is ignored (never half-applied) and reported. */
export interface RuleWarning {
  readonly rule: string;
  readonly source: string;
  readonly message: string;
}

/** A rule with its matcher built. */
export interface CompiledRule extends ParsedRule {
  /** For specifier rules: does the call's subject (command, path, host, agent type, args) match? */
  readonly test?: (subject: unknown) => boolean;
}

export interface ToolRules {
  readonly deny: readonly CompiledRule[];
  readonly ask: readonly CompiledRule[];
  readonly allow: readonly CompiledRule[];
}

/**
 * Permission rules compiled once, indexed by tool. Looking up the rules for a tool is O(1) after
 * its first use; evaluation only runs the rules that can concern that tool.
 */
export interface CompiledRuleSet {
  readonly rules: readonly CompiledRule[];
  readonly warnings: readonly RuleWarning[];
  readonly roots: PathRoots;
  rulesFor(tool: string): ToolRules;
  /** Whole-tool deny rules (no specifier) that name this tool: it is removed, not just refused. */
  wholeToolDenied(tool: string): CompiledRule | undefined;
}

/** The outcome of matching a call against the rules. */
export interface RuleEvaluation {
  readonly effect: RuleEffect | 'none';
  readonly rule?: CompiledRule;
  /** Shell calls: the line's analysis, reused by approval modes. */
  readonly shell?: { readonly readOnly: boolean; readonly destructive: boolean; readonly opaque: boolean };
}

const EMPTY: ToolRules = { deny: [], ask: [], allow: [] };

/** Compiles rule sources against path roots. Invalid rules land in `warnings`. */
export function compileRuleSet(sources: readonly RuleSource[], roots: PathRoots): CompiledRuleSet {
  const rules: CompiledRule[] = [];
  const warnings: RuleWarning[] = [];
  for (const src of sources) {
    for (const effect of ['deny', 'ask', 'allow'] as const) {
      for (const text of src[effect] ?? []) {
        const parsed = parseRule(text, effect, src.source);
        if ('error' in parsed) {
          warnings.push({ rule: text, source: src.source, message: parsed.error });
          continue;
        }
        const compiled = compileRule(parsed.rule, roots);
        if ('error' in compiled) warnings.push({ rule: text, source: src.source, message: compiled.error });
        else rules.push(compiled.rule);
      }
    }
  }
  return buildIndex(rules, warnings, roots);
}

/** A rule set with more rules layered on (e.g. an agent's scoped denies), sharing the base's work. */
export function extendRuleSet(base: CompiledRuleSet, sources: readonly RuleSource[]): CompiledRuleSet {
  if (sources.every((s) => !s.allow?.length && !s.ask?.length && !s.deny?.length)) return base;
  const extra = compileRuleSet(sources, base.roots);
  return buildIndex([...base.rules, ...extra.rules], [...base.warnings, ...extra.warnings], base.roots);
}

function compileRule(rule: ParsedRule, roots: PathRoots): { rule: CompiledRule } | { error: string } {
  const spec = rule.specifier;
  if (spec === undefined || rule.kind === undefined) return { rule };
  switch (rule.kind) {
    case 'command': {
      const m = compileCommandPattern(spec);
      return { rule: { ...rule, test: (s) => m(s as string) } };
    }
    case 'path': {
      const m = compilePathPattern(spec, roots);
      return { rule: { ...rule, test: (s) => m(s as string) } };
    }
    case 'domain': {
      const d = spec
        .replace(/^domain:/i, '')
        .replace(/^\*\./, '')
        .toLowerCase();
      return { rule: { ...rule, test: (s) => s === d || (s as string).endsWith(`.${d}`) } };
    }
    case 'agent-type': {
      const types = new Set(spec.split(',').map((t) => t.trim().toLowerCase()));
      return { rule: { ...rule, test: (s) => typeof s === 'string' && types.has(s.toLowerCase()) } };
    }
    case 'params': {
      const pairs: { key: string; re: RegExp }[] = [];
      for (const part of spec.split(',')) {
        const m = /^([A-Za-z_][A-Za-z0-9_]*):(.*)$/.exec(part.trim());
        if (!m) return { error: `specifier "${spec}" must be key:value pairs for tool ${rule.tool}` };
        const glob = m[2]!
          .trim()
          .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '.*');
        pairs.push({ key: m[1]!, re: new RegExp(`^${glob}$`, 'is') });
      }
      return {
        rule: {
          ...rule,
          test: (s) => {
            const a = (s && typeof s === 'object' ? s : {}) as Record<string, unknown>;
            return pairs.every(({ key, re }) => {
              const v = a[key];
              return (
                (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') &&
                re.test(String(v))
              );
            });
          },
        },
      };
    }
  }
}

function buildIndex(rules: CompiledRule[], warnings: RuleWarning[], roots: PathRoots): CompiledRuleSet {
  const exact = new Map<string, CompiledRule[]>();
  const patterns: { match: ToolNameMatcher; rule: CompiledRule }[] = [];
  const add = (tool: string, rule: CompiledRule) => {
    const list = exact.get(tool);
    if (list) list.push(rule);
    else exact.set(tool, [rule]);
  };
  for (const rule of rules) {
    if (rule.tool === '*' || rule.tool.endsWith('*') || rule.tool.startsWith('mcp__')) {
      patterns.push({ match: compileToolPattern(rule.tool), rule });
    } else if (rule.kind === 'path') {
      for (const t of PATH_RULE_COVERAGE[rule.tool] ?? [rule.tool]) add(t, rule);
    } else add(rule.tool, rule);
  }
  const memo = new Map<string, ToolRules>();
  const rulesFor = (tool: string): ToolRules => {
    const hit = memo.get(tool);
    if (hit) return hit;
    const all = [...(exact.get(tool) ?? []), ...patterns.filter((p) => p.match(tool)).map((p) => p.rule)];
    const out =
      all.length === 0
        ? EMPTY
        : {
            deny: all.filter((r) => r.effect === 'deny'),
            ask: all.filter((r) => r.effect === 'ask'),
            allow: all.filter((r) => r.effect === 'allow'),
          };
    if (memo.size < 50_000) memo.set(tool, out);
    return out;
  };
  return {
    rules,
    warnings,
    roots,
    rulesFor,
    wholeToolDenied: (tool) => rulesFor(tool).deny.find((r) => r.specifier === undefined),
  };
}

/**
 * Matches one call against the rules: deny, then ask, then allow — the first effect with a
 * matching rule decides; which rule matched within an effect does not matter. Shell lines are
 * judged per simple command (see {@link evaluateShell}).
 */
export function evaluateRules(set: CompiledRuleSet, tool: string, args: unknown): RuleEvaluation {
  const rules = set.rulesFor(tool);
  if (tool === 'shell') return evaluateShell(set, rules, args);
  if (rules === EMPTY) return { effect: 'none' };
  const subject = subjectOf(tool, args, set.roots);
  for (const effect of ['deny', 'ask', 'allow'] as const) {
    const hit = rules[effect].find((r) => r.test === undefined || r.test(subject));
    if (hit) return { effect, rule: hit };
  }
  return { effect: 'none' };
}

function subjectOf(tool: string, args: unknown, roots: PathRoots): unknown {
  const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  if (Object.hasOwn(PATH_RULE_COVERAGE, tool)) return targetPathOf(args, roots);
  if (tool === 'web_fetch') return hostOf(a.url);
  if (tool === 'agent') return a.subagent_type ?? a.agent ?? a.type ?? args;
  return args;
}

function hostOf(url: unknown): string {
  if (typeof url !== 'string') return '';
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

/**
 * Shell lines: a deny or ask rule matching ANY simple command decides; an allow rule only
 * approves the line when every simple command is allowed by a rule or is read-only, and a
 * specifier allow never approves a command that writes through a redirection or a line we could
 * not parse. Files a command reads (`cat .env`) or writes (`> f`) are also checked against the
 * read/edit path rules' deny and ask — they can only make the answer stricter.
 */
function evaluateShell(set: CompiledRuleSet, rules: ToolRules, args: unknown): RuleEvaluation {
  const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  const command = typeof a.command === 'string' ? a.command : '';
  const split = splitShellCommand(command);
  const shell = {
    readOnly: isReadOnlyShell(split),
    destructive: isDestructiveShell(split),
    opaque: split.opaque,
  };
  const segs = split.segments;
  for (const effect of ['deny', 'ask'] as const) {
    for (const r of rules[effect]) {
      if (r.test === undefined || segs.some((s) => r.test!(s.text) || r.test!(s.core))) {
        return { effect, rule: r, shell };
      }
    }
    const viaFiles = fileRuleHit(set, split, effect);
    if (viaFiles) return { effect, rule: viaFiles, shell };
  }
  const whole = rules.allow.find((r) => r.test === undefined);
  if (whole) return { effect: 'allow', rule: whole, shell };
  if (rules.allow.length === 0 || split.opaque || segs.length === 0) return { effect: 'none', shell };
  let first: CompiledRule | undefined;
  for (const s of segs) {
    const hit = s.writes.length === 0 ? rules.allow.find((r) => r.test!(s.text)) : undefined;
    if (hit) first ??= hit;
    else if (!segmentIsReadOnly(s)) return { effect: 'none', shell };
  }
  return first ? { effect: 'allow', rule: first, shell } : { effect: 'none', shell };
}

function fileRuleHit(
  set: CompiledRuleSet,
  split: SplitShellCommand,
  effect: 'deny' | 'ask',
): CompiledRule | undefined {
  const readRules = set.rulesFor('read_file')[effect].filter((r) => r.kind === 'path');
  const writeRules = set.rulesFor('write_file')[effect].filter((r) => r.kind === 'path');
  if (readRules.length === 0 && writeRules.length === 0) return undefined;
  for (const seg of split.segments) {
    const words = seg.core.split(' ');
    const reads = [...seg.reads];
    if (FILE_READING_COMMANDS.has(words[0] ?? ''))
      reads.push(...words.slice(1).filter((w) => !w.startsWith('-')));
    for (const p of reads) {
      const abs = resolvePath(p, set.roots);
      const hit = readRules.find((r) => r.test!(abs));
      if (hit) return hit;
    }
    for (const p of seg.writes) {
      const abs = resolvePath(p, set.roots);
      const hit = writeRules.find((r) => r.test!(abs));
      if (hit) return hit;
    }
  }
  return undefined;
}
