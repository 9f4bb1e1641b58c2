import { ConfigError } from '../core/index.js';

/**
 * The two lines are separate trust chains (docs/lines.md, "Two trust chains"): their tool allowlists must be disjoint.
 * Throws a `ConfigError` naming the shared tools unless overlap is explicitly allowed.
 */
export function assertDisjointAllowlists(
  deep: readonly string[],
  quick: readonly string[],
  options: { allowOverlap?: boolean; where?: string } = {},
): void {
  if (options.allowOverlap) return;
  const quickSet = new Set(quick);
  const shared = deep.filter((t) => quickSet.has(t));
  if (shared.length > 0) {
    throw new ConfigError(
      'config.lines_overlap',
      `lines.deep.allow and lines.quick.allow share ${shared.join(', ')}; the lines must be disjoint (set lines.allowOverlap: true to accept this)`,
      { where: options.where ?? 'lines' },
    );
  }
}

/** One line allowlist entry compiled: an exact name, every tool of an MCP server, or a glob. */
function allowlistMatcher(pattern: string): (name: string) => boolean {
  if (/[*?]/.test(pattern)) {
    const re = new RegExp(
      `^${pattern
        .split('')
        .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\-]/g, '\\$&')))
        .join('')}$`,
    );
    return (name) => re.test(name);
  }
  // `mcp__<server>`: every tool that server brought (`mcp__<server>__<tool>`), not `mcp__<server>x__…`
  if (pattern.startsWith('mcp__') && pattern.split('__').length === 2) {
    const prefix = `${pattern}__`;
    return (name) => name.startsWith(prefix);
  }
  return (name) => name === pattern;
}

/**
 * Expands a line's allowlist as written (tool names, `mcp__<server>`, globs with `*` and `?`)
 * against the registered tools, in registration order. An entry that matches no tool is a
 * `ConfigError`: an allowlist that names a tool nobody registered cannot mean what it says.
 */
export function resolveLineAllowlist(
  patterns: readonly string[],
  registered: readonly string[],
  where: string,
): string[] {
  const matchers = patterns.map((p) => ({ p, match: allowlistMatcher(p) }));
  for (const { p, match } of matchers) {
    if (!registered.some(match)) {
      throw new ConfigError(
        'config.lines_unknown_tool',
        `${JSON.stringify(p)} matches no registered tool${/[*?]|^mcp__/.test(p) ? '' : ' (is it spelled as the tools module names it?)'}`,
        { where },
      );
    }
  }
  return registered.filter((name) => matchers.some(({ match }) => match(name)));
}

/** The two tool lines' allowlists expanded against the registry, checked disjoint. */
export function resolveLineAllowlists(
  lines: {
    readonly deep: readonly string[];
    readonly quick: readonly string[];
    readonly allowOverlap?: boolean;
  },
  registered: readonly string[],
  where: string,
): { deep: string[]; quick: string[] } {
  const deep = resolveLineAllowlist(lines.deep, registered, `${where}: lines.deep.allow`);
  const quick = resolveLineAllowlist(lines.quick, registered, `${where}: lines.quick.allow`);
  assertDisjointAllowlists(deep, quick, {
    allowOverlap: lines.allowOverlap === true,
    where: `${where}: lines`,
  });
  return { deep, quick };
}
