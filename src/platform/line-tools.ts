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

/** Runs a tool's backend under its circuit breaker, so failures and slow calls count against it. */
export function withBreaker(tool: ToolSpec, breakers: ToolBreakers): ToolSpec {
  return { ...tool, execute: (args, ctx) => breakers.run(tool.name, () => tool.execute(args, ctx)) };
}
