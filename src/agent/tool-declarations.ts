import { z } from 'zod';
import type { ToolSpec } from '../tools/index.js';
import type { ToolDeclaration } from './providers/index.js';
import type { ToolCatalog } from './runtime-ports.js';

const cache = new WeakMap<ToolSpec, ToolDeclaration>();

/** A manifest as the model sees it: name, description, arguments as JSON Schema. */
export function declarationOf(spec: ToolSpec): ToolDeclaration {
  let d = cache.get(spec);
  if (!d) {
    let parameters: Record<string, unknown>;
    try {
      parameters = z.toJSONSchema(spec.inputSchema, { unrepresentable: 'any' }) as Record<string, unknown>;
    } catch {
      parameters = { type: 'object' };
    }
    // The $schema key is noise to models and some servers reject it.
    const { $schema: _drop, ...rest } = parameters;
    d = { name: spec.name, description: spec.description, parameters: rest };
    cache.set(spec, d);
  }
  return d;
}

/**
 * What the model of an agent is shown: only registered tools in its resolved set. The gateway
 * checks again at invocation; this only keeps the model from seeing what it may not use.
 */
export function declarationsFor(catalog: ToolCatalog, allowed: ReadonlySet<string>): ToolDeclaration[] {
  const out: ToolDeclaration[] = [];
  for (const spec of catalog.list()) if (allowed.has(spec.name)) out.push(declarationOf(spec));
  return out;
}
