import type { PermissionSubject, PermissionSubjectKind } from '../core/index.js';
import { compileCommandPattern } from './command-pattern.js';
import type { CompiledRule, RuleEvaluation } from './compiled-rule.js';
import { ENGINE_STATE_SHELL_RULE, shellNamesEngineState } from './engine-state-guard.js';
import { compilePathPattern, literalBaseOf, type PathRoots, resolvePath } from './path-pattern.js';
import {
  FILE_READ_RULES,
  FILE_WRITE_RULES,
  PATH_RULE_COVERAGE,
  type ParsedRule,
  parseRule,
  type SpecifierKind,
} from './rule-parser.js';
import { RuleSetMemo, type ShellAnalysis } from './rule-set-memo.js';
import { namesPathOutside } from './shell-hazards.js';
import {
  FILE_READING_COMMANDS,
  isDestructiveShell,
  isReadOnlyShell,
  segmentIsReadOnly,
} from './shell-risk.js';
import { type SplitShellCommand, splitShellCommand } from './shell-split.js';
import { compileToolPattern, type ToolNameMatcher } from './tool-pattern.js';

export type { CompiledRule, RuleEvaluation } from './compiled-rule.js';

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

export interface ToolRules {
  readonly deny: readonly CompiledRule[];
  readonly ask: readonly CompiledRule[];
  readonly allow: readonly CompiledRule[];
  /** The same rules bucketed by key (a command's first word, a path's directory) for fast lookup. */
  readonly index: { readonly deny: RuleIndex; readonly ask: RuleIndex; readonly allow: RuleIndex };
  /** The permission subjects these rules' specifiers are written for (`Bash(…)`: a command). */
  readonly subjects: ReadonlySet<PermissionSubjectKind>;
}

/**
 * Rules of one effect bucketed by a key that a matching subject must have: `whole` rules match
 * any call; `byKey` rules can only match a subject with that key (first command word, or an
 * ancestor directory of the path); `rest` must always be tested.
 */
export interface RuleIndex {
  readonly whole: readonly CompiledRule[];
  readonly byKey: ReadonlyMap<string, readonly CompiledRule[]>;
  readonly rest: readonly CompiledRule[];
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
  /** Changes whenever the rules do (a live set, see `LiveRuleSet`); absent: never changes. */
  version?(): number;
  /** What this set remembers of the shell lines it judged. */
  readonly memo: RuleSetMemo;
}

const EMPTY_INDEX: RuleIndex = { whole: [], byKey: new Map(), rest: [] };
const EMPTY: ToolRules = {
  deny: [],
  ask: [],
  allow: [],
  index: { deny: EMPTY_INDEX, ask: EMPTY_INDEX, allow: EMPTY_INDEX },
  subjects: new Set(),
};

/** The subject a specifier of each kind is written for; `params` specifiers match the arguments. */
const SUBJECT_OF_SPECIFIER: Readonly<Record<SpecifierKind, PermissionSubjectKind | undefined>> = {
  command: 'command',
  path: 'path',
  domain: 'host',
  'agent-type': 'agentType',
  params: undefined,
};

function expectedSubject(rule: CompiledRule): PermissionSubjectKind | undefined {
  return rule.kind === undefined || rule.specifier === undefined
    ? undefined
    : SUBJECT_OF_SPECIFIER[rule.kind];
}

type KeyedRule = CompiledRule;

function toolRules(all: readonly KeyedRule[]): ToolRules {
  const deny = all.filter((r) => r.effect === 'deny');
  const ask = all.filter((r) => r.effect === 'ask');
  const allow = all.filter((r) => r.effect === 'allow');
  const subjects = new Set<PermissionSubjectKind>();
  for (const r of all) {
    const kind = expectedSubject(r);
    if (kind !== undefined) subjects.add(kind);
  }
  return {
    deny,
    ask,
    allow,
    index: { deny: indexOf(deny), ask: indexOf(ask), allow: indexOf(allow) },
    subjects,
  };
}

function indexOf(rules: readonly KeyedRule[]): RuleIndex {
  const whole: CompiledRule[] = [];
  const rest: CompiledRule[] = [];
  const byKey = new Map<string, CompiledRule[]>();
  for (const r of rules) {
    if (r.test === undefined) whole.push(r);
    else if (r.key === undefined) rest.push(r);
    else {
      const list = byKey.get(r.key);
      if (list) list.push(r);
      else byKey.set(r.key, [r]);
    }
  }
  return { whole, byKey, rest };
}

/** Finds a rule matching `subject` among those whose key is one of `keys` (plus unkeyed ones). */
function findIndexed(idx: RuleIndex, keys: readonly string[], subject: unknown): CompiledRule | undefined {
  if (idx.whole[0]) return idx.whole[0];
  for (const k of keys) {
    const list = idx.byKey.get(k);
    if (list) for (const r of list) if (r.test!(subject)) return r;
  }
  for (const r of idx.rest) if (r.test!(subject)) return r;
  return undefined;
}

/** `a.b.example.com` → [`a.b.example.com`, `b.example.com`, `example.com`, `com`]. */
function parentDomainsOf(host: string): string[] {
  const out = [host];
  let i = host.indexOf('.');
  while (i >= 0) {
    out.push(host.slice(i + 1));
    i = host.indexOf('.', i + 1);
  }
  return out;
}

/** `/a/b/c` → [`/a/b/c`, `/a/b`, `/a`, `/`]. */
function ancestorsOf(path: string): string[] {
  const out = [path];
  let p = path;
  while (p.length > 1) {
    const i = p.lastIndexOf('/');
    p = i <= 0 ? '/' : p.slice(0, i);
    out.push(p);
  }
  return out;
}

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
  // Layered, not rebuilt: the base's per-tool index (and its memo) is shared by every agent.
  const memo = new Map<string, ToolRules>();
  // A live base (session rules a host added) invalidates what was layered on its old rules.
  let seen = base.version?.();
  const rulesFor = (tool: string): ToolRules => {
    if (base.version && base.version() !== seen) {
      seen = base.version();
      memo.clear();
    }
    const hit = memo.get(tool);
    if (hit) return hit;
    const a = base.rulesFor(tool);
    const b = extra.rulesFor(tool);
    const out =
      b === EMPTY
        ? a
        : a === EMPTY
          ? b
          : toolRules([...a.deny, ...a.ask, ...a.allow, ...b.deny, ...b.ask, ...b.allow]);
    if (memo.size < 50_000) memo.set(tool, out);
    return out;
  };
  return {
    get rules() {
      return [...base.rules, ...extra.rules];
    },
    warnings: [...base.warnings, ...extra.warnings],
    roots: base.roots,
    rulesFor,
    wholeToolDenied: (tool) => rulesFor(tool).deny.find((r) => r.specifier === undefined),
    ...(base.version ? { version: () => base.version!() } : {}),
    memo: new RuleSetMemo(),
  };
}

function compileRule(rule: ParsedRule, roots: PathRoots): { rule: CompiledRule } | { error: string } {
  const spec = rule.specifier;
  if (spec === undefined || rule.kind === undefined) return { rule };
  switch (rule.kind) {
    case 'command': {
      // The matcher itself is the test (only command subjects, strings, reach it): one call less per rule.
      const m = compileCommandPattern(spec) as (s: unknown) => boolean;
      const key = commandKeyOf(spec);
      return { rule: { ...rule, test: m, ...(key ? { key } : {}) } };
    }
    case 'path': {
      const m = compilePathPattern(spec, roots);
      const key = literalBaseOf(spec, roots);
      return { rule: { ...rule, test: (s) => typeof s === 'string' && m(s), ...(key ? { key } : {}) } };
    }
    case 'domain': {
      const d = spec
        .replace(/^domain:/i, '')
        .replace(/^\*\./, '')
        .toLowerCase();
      return { rule: { ...rule, test: (s) => typeof s === 'string' && (s === d || s.endsWith(`.${d}`)) } };
    }
    case 'agent-type': {
      const types = new Set(spec.split(',').map((t) => t.trim().toLowerCase()));
      const only = types.size === 1 ? [...types][0] : undefined;
      return {
        rule: {
          ...rule,
          ...(only !== undefined ? { key: only } : {}),
          test: (s) => typeof s === 'string' && types.has(s.toLowerCase()),
        },
      };
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
    const out = all.length === 0 ? EMPTY : toolRules(all);
    if (memo.size < 50_000) memo.set(tool, out);
    return out;
  };
  return {
    rules,
    warnings,
    roots,
    rulesFor,
    wholeToolDenied: (tool) => rulesFor(tool).deny.find((r) => r.specifier === undefined),
    memo: new RuleSetMemo(),
  };
}

/**
 * Matches one call against the rules: deny, then ask, then allow — the first effect with a
 * matching rule decides; which rule matched within an effect does not matter. `subject` is what
 * the tool's manifest names (`ToolSpec.permissionSubject`): a command line is judged per simple
 * command (see {@link evaluateShell}), a path is resolved against the roots, a host matches its
 * parent domains; without one, the rules match the arguments.
 */
export function evaluateRules(
  set: CompiledRuleSet,
  tool: string,
  args: unknown,
  subject: PermissionSubject | undefined,
): RuleEvaluation {
  const rules = set.rulesFor(tool);
  const unmet = unmetRule(rules, subject);
  if (unmet) return unmet;
  if (subject?.kind === 'command') {
    const command = subject.value;
    const known = set.memo.verdict(command, set.version?.());
    if (known) return known;
    const judged = evaluateShell(set, rules, command);
    set.memo.rememberVerdict(command, judged);
    return judged;
  }
  if (rules === EMPTY) return { effect: 'none' };
  if (!subjectMet(rules, subject)) return argumentRules(rules, args);
  const { value, keys } = matchTarget(subject, args, set.roots);
  for (const effect of ['deny', 'ask', 'allow'] as const) {
    const hit = findIndexed(rules.index[effect], keys, value);
    if (hit) return { effect, rule: hit };
  }
  return { effect: 'none' };
}

/**
 * Fails closed when the tool's manifest does not name the subject a rule is written for (a tool
 * called `shell` whose manifest names no command): its deny, then its ask rules hold for every
 * call, and its allow rules for none.
 */
function unmetRule(rules: ToolRules, subject: PermissionSubject | undefined): RuleEvaluation | undefined {
  if (subjectMet(rules, subject)) return undefined;
  for (const effect of ['deny', 'ask'] as const) {
    const rule = rules[effect].find((r) => {
      const kind = expectedSubject(r);
      return kind !== undefined && kind !== subject?.kind;
    });
    if (rule) return { effect, rule };
  }
  return undefined;
}

/** True when every specifier of the tool's rules is written for the subject the call names. */
function subjectMet(rules: ToolRules, subject: PermissionSubject | undefined): boolean {
  if (rules.subjects.size === 0) return true;
  return subject !== undefined && rules.subjects.size === 1 && rules.subjects.has(subject.kind);
}

/**
 * A call whose subject the rules were not written for (after {@link unmetRule}): only whole-tool
 * rules and `key:value` rules on its arguments can still decide.
 */
function argumentRules(rules: ToolRules, args: unknown): RuleEvaluation {
  for (const effect of ['deny', 'ask', 'allow'] as const) {
    const rule = rules[effect].find(
      (r) => r.test === undefined || (expectedSubject(r) === undefined && r.test(args)),
    );
    if (rule) return { effect, rule };
  }
  return { effect: 'none' };
}

/** What specifier rules test, and the index keys a matching rule may be filed under. */
function matchTarget(
  subject: PermissionSubject | undefined,
  args: unknown,
  roots: PathRoots,
): { readonly value: unknown; readonly keys: readonly string[] } {
  if (subject === undefined) return { value: args, keys: [] };
  switch (subject.kind) {
    case 'path': {
      const path = resolvePath(subject.value, roots);
      return { value: path, keys: ancestorsOf(path) };
    }
    case 'host':
      return { value: subject.value, keys: parentDomainsOf(subject.value) };
    case 'command':
    case 'agentType':
      return { value: subject.value, keys: [subject.value.toLowerCase()] };
  }
}

/**
 * Shell lines: a deny or ask rule matching ANY simple command decides; an allow rule only
 * approves the line when every simple command is allowed by a rule or is read-only, and a
 * specifier allow never approves a command that writes through a redirection or a line we could
 * not parse. Files a command reads (`cat .env`) or writes (`> f`) are also checked against the
 * read/edit path rules' deny and ask — they can only make the answer stricter.
 */
function evaluateShell(set: CompiledRuleSet, rules: ToolRules, command: string): RuleEvaluation {
  const analysis = analyseShell(command);
  const split = analysis.split;
  let shell = analysis.shell;
  let files: FileOps | undefined;
  const segs = split.segments;
  // Each segment's index keys are cut once and reused for deny, ask and allow.
  const textKeys = segs.map((s) => keysOf(s.text));
  const coreKeys = segs.map((s) => (s.core !== s.text ? keysOf(s.core) : undefined));
  for (const effect of ['deny', 'ask'] as const) {
    // After the deny rules, before any ask or allow: a line naming engine state asks, in every mode.
    if (effect === 'ask' && shellNamesEngineState(command, set.roots)) {
      return { effect: 'ask', rule: ENGINE_STATE_SHELL_RULE, shell: { ...shell, readOnly: false } };
    }
    const idx = rules.index[effect];
    if (idx.whole[0]) return { effect, rule: idx.whole[0], shell };
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i]!;
      const ck = coreKeys[i];
      const hit = findCommand(idx, s.text, textKeys[i]!) ?? (ck ? findCommand(idx, s.core, ck) : undefined);
      if (hit) return { effect, rule: hit, shell };
    }
    files ??= fileOpsOf(split, set.roots);
    const viaFiles = fileRuleHit(set, files, effect);
    if (viaFiles) return { effect, rule: viaFiles, shell };
  }
  // A read-only line that touches files outside the project is not "safe to run unasked".
  if (shell.readOnly) {
    files ??= fileOpsOf(split, set.roots);
    const root = set.roots.projectRoot.replace(/\/$/, '');
    const outside = (f: { abs: string }) => f.abs !== root && !f.abs.startsWith(`${root}/`);
    if (
      files.reads.some(outside) ||
      files.writes.some(outside) ||
      namesPathOutside(split.segments, set.roots)
    ) {
      shell = { ...shell, readOnly: false };
    }
  }
  const whole = rules.index.allow.whole[0];
  if (whole) return { effect: 'allow', rule: whole, shell };
  if (rules.allow.length === 0 || split.opaque || segs.length === 0) return { effect: 'none', shell };
  let first: CompiledRule | undefined;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i]!;
    const hit =
      s.writes.length === 0 && !s.riskyEnv ? findCommand(rules.index.allow, s.text, textKeys[i]!) : undefined;
    if (hit) first ??= hit;
    else if (!segmentIsReadOnly(s)) return { effect: 'none', shell };
  }
  return first ? { effect: 'allow', rule: first, shell } : { effect: 'none', shell };
}

// Only a verdict the set has not remembered needs the analysis, so the analysis itself is not kept.
function analyseShell(command: string): ShellAnalysis {
  const split = splitShellCommand(command);
  return {
    split,
    shell: { readOnly: isReadOnlyShell(split), destructive: isDestructiveShell(split), opaque: split.opaque },
  };
}

/** Files a shell line reads and writes, resolved once, with their ancestor directories as index keys. */
interface FileOps {
  readonly reads: readonly { readonly abs: string; readonly keys: readonly string[] }[];
  readonly writes: readonly { readonly abs: string; readonly keys: readonly string[] }[];
}

function fileOpsOf(split: SplitShellCommand, roots: PathRoots): FileOps {
  const reads: { abs: string; keys: string[] }[] = [];
  const writes: { abs: string; keys: string[] }[] = [];
  // Follow literal `cd` so `cd /etc && cat passwd` is seen as reading /etc/passwd.
  let here = roots;
  for (const seg of split.segments) {
    // Most commands neither change directory nor read named files: skip them unsplit.
    const sp = seg.core.indexOf(' ');
    const head = sp < 0 ? seg.core : seg.core.slice(0, sp);
    if (
      seg.reads.length === 0 &&
      seg.writes.length === 0 &&
      head !== 'cd' &&
      head !== 'pushd' &&
      !FILE_READING_COMMANDS.has(head)
    )
      continue;
    const words = seg.core.split(' ');
    if ((words[0] === 'cd' || words[0] === 'pushd') && words[1] !== undefined && !words[1].startsWith('-')) {
      here = { ...here, cwd: resolvePath(words[1], here) };
      continue;
    }
    const named = FILE_READING_COMMANDS.has(words[0] ?? '')
      ? words.slice(1).filter((w) => !w.startsWith('-'))
      : [];
    for (const p of [...seg.reads, ...named]) {
      const abs = resolvePath(p, here);
      reads.push({ abs, keys: ancestorsOf(abs) });
    }
    for (const p of seg.writes) {
      const abs = resolvePath(p, here);
      writes.push({ abs, keys: ancestorsOf(abs) });
    }
  }
  return { reads, writes };
}

function fileRuleHit(set: CompiledRuleSet, files: FileOps, effect: 'deny' | 'ask'): CompiledRule | undefined {
  if (files.reads.length === 0 && files.writes.length === 0) return undefined;
  // Whole-tool read/edit rules say nothing about what a shell command may touch: keyed and
  // unkeyed specifier rules only.
  if (files.reads.length > 0) {
    const idx = set.rulesFor(FILE_READ_RULES).index[effect];
    for (const f of files.reads) {
      const hit = findSpecified(idx, f.keys, f.abs);
      if (hit) return hit;
    }
  }
  if (files.writes.length > 0) {
    const idx = set.rulesFor(FILE_WRITE_RULES).index[effect];
    for (const f of files.writes) {
      const hit = findSpecified(idx, f.keys, f.abs);
      if (hit) return hit;
    }
  }
  return undefined;
}

/** {@link findIndexed} ignoring the index's whole-tool rules. */
function findSpecified(idx: RuleIndex, keys: readonly string[], subject: string): CompiledRule | undefined {
  if (idx.byKey.size > 0) {
    for (const k of keys) {
      const hit = testEach(idx.byKey.get(k), subject);
      if (hit) return hit;
    }
  }
  return testEach(idx.rest, subject);
}

/**
 * Index key of a command rule: its first one or two literal words (`git push:*` → `git push`,
 * `git *` → `git`, `npm run build` → `npm run`). Undefined when the first word has a glob.
 */
function commandKeyOf(spec: string): string | undefined {
  const words = spec.replace(/\s+/g, ' ').trim().replace(/:\*$/, '').split(' ');
  const literal = (w: string | undefined) =>
    w !== undefined && w !== '' && !w.includes('*') && !w.includes('\\');
  if (!literal(words[0])) return undefined;
  return literal(words[1]) ? `${words[0]} ${words[1]}` : words[0];
}

/** A command's index keys: its first word, and its first two words when it has a second. */
interface CommandKeys {
  readonly first: string;
  readonly second: string | undefined;
}

function keysOf(command: string): CommandKeys {
  const a = command.indexOf(' ');
  if (a < 0) return { first: command, second: undefined };
  const b = command.indexOf(' ', a + 1);
  return { first: command.slice(0, a), second: b < 0 ? command : command.slice(0, b) };
}

/** {@link findIndexed} for a command whose keys were cut by {@link keysOf}. */
function findCommand(idx: RuleIndex, command: string, keys: CommandKeys): CompiledRule | undefined {
  if (idx.whole[0]) return idx.whole[0];
  if (idx.byKey.size > 0) {
    const hit = testEach(idx.byKey.get(keys.first), command);
    if (hit) return hit;
    if (keys.second !== undefined) {
      const hit2 = testEach(idx.byKey.get(keys.second), command);
      if (hit2) return hit2;
    }
  }
  return testEach(idx.rest, command);
}

function testEach(list: readonly CompiledRule[] | undefined, subject: unknown): CompiledRule | undefined {
  if (list) for (const r of list) if (r.test!(subject)) return r;
  return undefined;
}
