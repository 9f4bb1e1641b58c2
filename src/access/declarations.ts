import type { AccessState } from './access-state.js';

/**
 * The tool declarations the model is shown: only what the agent may call. Takes anything with a
 * `name` (ToolSpec, manifest entries, provider function declarations).
 */
export function filterDeclarations<T extends { readonly name: string }>(
  tools: readonly T[],
  access: Pick<AccessState, 'tools'>,
): T[] {
  return tools.filter((t) => access.tools.has(t.name));
}

/**
 * `tool_search` results: an agent never discovers a tool it could not call. Results are matched
 * by `name` (or `tool`) and unknown shapes are dropped.
 */
export function filterToolSearch<T>(results: readonly T[], access: Pick<AccessState, 'tools'>): T[] {
  return results.filter((r) => {
    const o = r as { name?: unknown; tool?: unknown };
    const name = typeof o?.name === 'string' ? o.name : typeof o?.tool === 'string' ? o.tool : undefined;
    return name !== undefined && access.tools.has(name);
  });
}
