import type { ToolBreakers } from '../resilience/index.js';
import type { ToolSpec } from '../tools/index.js';

/** A line's view of the registry: only its allowlist, each tool optionally wrapped. */
export class LineToolCatalog {
  readonly #tools = new Map<string, ToolSpec>();

  constructor(tools: Iterable<ToolSpec>) {
    for (const t of tools) this.#tools.set(t.name, t);
  }

  get(name: string): ToolSpec | undefined {
    return this.#tools.get(name);
  }

  list(): readonly ToolSpec[] {
    return [...this.#tools.values()];
  }

  get names(): ReadonlySet<string> {
    return new Set(this.#tools.keys());
  }
}

/**
 * Runs a tool's backend under the caller's tenant's breaker of it and its tool-wide breaker, so
 * failures, timeouts and slow calls count against the tenant that made them (and tool faults
 * against the tool).
 */
export function withBreaker(tool: ToolSpec, breakers: ToolBreakers): ToolSpec {
  const timeoutMs = tool.timeoutMs;
  return {
    ...tool,
    execute: (args, ctx) =>
      breakers.run(ctx.identity.tenant, tool.name, () => tool.execute(args, ctx), { timeoutMs }),
  };
}
