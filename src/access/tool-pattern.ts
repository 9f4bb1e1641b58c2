import { canonicalToolName } from './tool-names.js';

/** A compiled tool-name pattern. */
export type ToolNameMatcher = (name: string) => boolean;

const sanitise = (s: string) => s.replace(/[^A-Za-z0-9_*-]/g, '_');

/**
 * Compiles a tool pattern as written in `tools`, `disallowedTools` or a whole-tool rule:
 * - `*`: every tool;
 * - an exact name or alias (`Read` → `read_file`);
 * - `mcp__server`: every tool of that server (not `mcp__serverbot__…`);
 * - `mcp__server__tool`: that tool;
 * - a trailing `*` is a prefix: `mcp__*`, `mcp__server__*`, `mcp__server__get_*`, `task_*`.
 * MCP server names are compared after the same normalisation MCP tool names get
 * (characters outside `[A-Za-z0-9_-]` → `_`), so `mcp__foo.bar` matches `mcp__foo_bar__x`.
 */
export function compileToolPattern(pattern: string): ToolNameMatcher {
  const raw = pattern.trim();
  if (raw === '*') return () => true;
  if (raw.startsWith('mcp__')) {
    const p = sanitise(raw);
    if (p.endsWith('*')) {
      const prefix = p.slice(0, -1);
      return (name) => name.startsWith(prefix);
    }
    const parts = p.split('__');
    if (parts.length === 2) {
      const prefix = `${p}__`;
      return (name) => name.startsWith(prefix);
    }
    return (name) => name === p || name === raw;
  }
  if (raw.endsWith('*')) {
    const prefix = raw.slice(0, -1);
    return (name) => name.startsWith(prefix);
  }
  const canonical = canonicalToolName(raw);
  return (name) => name === canonical;
}

/** One-shot form of {@link compileToolPattern}. */
export function matchesToolPattern(pattern: string, name: string): boolean {
  return compileToolPattern(pattern)(name);
}
