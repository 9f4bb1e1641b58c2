import { canonicalToolName, isMcpToolName } from './tool-names.js';

export type RuleEffect = 'allow' | 'ask' | 'deny';

/** What a rule's specifier is matched against. */
export type SpecifierKind = 'command' | 'path' | 'domain' | 'agent-type' | 'params';

/** A permission rule after parsing (not yet compiled against path roots). */
export interface ParsedRule {
  /** The rule as written. */
  readonly text: string;
  readonly effect: RuleEffect;
  /** Canonical tool name, or a tool pattern (`mcp__server`, `mcp__srv__get*`, `*`). */
  readonly tool: string;
  /** Absent for a whole-tool rule (`Tool`, `Tool()`, `Tool(*)`). */
  readonly specifier?: string;
  readonly kind?: SpecifierKind;
  /** Settings file or other origin, for explanations. */
  readonly source?: string;
}

export type RuleParseResult = { readonly rule: ParsedRule } | { readonly error: string };

/** Tools whose specifier is a path, and which tools a path rule on them covers. */
export const PATH_RULE_COVERAGE: Readonly<Record<string, readonly string[]>> = {
  read_file: ['read_file', 'grep', 'glob', 'list_directory'],
  edit: ['edit', 'write_file'],
  write_file: ['write_file'],
  grep: ['grep'],
  glob: ['glob'],
  list_directory: ['list_directory'],
};

/** The path rules a shell line's reads are held to (`Read(…)`), and its writes (`Edit(…)`, `Write(…)`). */
export const FILE_READ_RULES = 'read_file';
export const FILE_WRITE_RULES = 'write_file';

/** Longest rule accepted; longer ones are refused rather than truncated. */
export const MAX_RULE_LENGTH = 512;

/**
 * Parses `Tool` or `Tool(specifier)`. Tool names go through the alias table (`Bash` → `shell`,
 * `Read` → `read_file`). `Tool()` and `Tool(*)` are whole-tool rules. `\(` and `\)` inside the
 * specifier are literal parentheses.
 */
export function parseRule(text: string, effect: RuleEffect, source?: string): RuleParseResult {
  const raw = text.trim();
  if (raw === '') return { error: 'empty rule' };
  if (raw.length > MAX_RULE_LENGTH) return { error: `rule longer than ${MAX_RULE_LENGTH} characters` };
  const open = firstUnescaped(raw, '(');
  let toolPart = raw;
  let specifier: string | undefined;
  if (open >= 0) {
    if (!raw.endsWith(')') || raw.endsWith('\\)')) return { error: 'unbalanced parentheses' };
    toolPart = raw.slice(0, open).trim();
    specifier = raw
      .slice(open + 1, -1)
      .replace(/\\([()])/g, '$1')
      .trim();
    if (specifier === '' || specifier === '*') specifier = undefined;
  } else if (firstUnescaped(raw, ')') >= 0) return { error: 'unbalanced parentheses' };
  if (toolPart === '') return { error: 'missing tool name' };
  const base = { text: raw, effect, ...(source !== undefined ? { source } : {}) };
  if (isMcpToolName(toolPart) || toolPart === '*' || toolPart.endsWith('*')) {
    // MCP arguments have no canonical field to match, so an MCP rule with a specifier would
    // silently never match: refuse it so the author sees it.
    if (specifier !== undefined) return { error: 'MCP and pattern rules take no specifier' };
    return { rule: { ...base, tool: toolPart } };
  }
  const tool = canonicalToolName(toolPart);
  if (specifier === undefined) return { rule: { ...base, tool } };
  return { rule: { ...base, tool, specifier, kind: specifierKind(tool, specifier) } };
}

function specifierKind(tool: string, specifier: string): SpecifierKind {
  if (tool === 'shell') return 'command';
  if (Object.hasOwn(PATH_RULE_COVERAGE, tool)) return 'path';
  if (tool === 'web_fetch') return 'domain';
  if (tool === 'agent' && !/^[A-Za-z_][A-Za-z0-9_]*:/.test(specifier)) return 'agent-type';
  return 'params';
}

function firstUnescaped(s: string, ch: string): number {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === ch) return i;
  }
  return -1;
}
