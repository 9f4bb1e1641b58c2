import { z } from 'zod';
import type { ToolSpec } from '../../tools/index.js';

/** Where a tool's input schema is not strict enough for the quick line. */
export interface LooseArgument {
  readonly tool: string;
  /** JSON pointer-ish path of the argument, e.g. `start` or `attendees[]`. */
  readonly path: string;
  readonly problem: string;
}

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
};

/**
 * The quick line accepts only strict-schema tools (docs/lines.md, "Two trust chains"): every argument typed, and every
 * string enumerated, pattern-constrained or of a known format — the model cannot pass an arbitrary
 * string. Returns every loose argument found (empty when the tool is strict).
 */
export function findLooseArguments(tool: ToolSpec): LooseArgument[] {
  const schema = z.toJSONSchema(tool.inputSchema, { unrepresentable: 'any' }) as JsonSchema;
  const out: LooseArgument[] = [];
  walk(schema, '', tool.name, out);
  return out;
}

function walk(s: JsonSchema, path: string, tool: string, out: LooseArgument[]): void {
  const at = path || '(arguments)';
  for (const alt of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) walk(alt, path, tool, out);
  if (s.anyOf || s.oneOf) return;
  if (s.enum || s.const !== undefined) return;
  const type = Array.isArray(s.type) ? s.type.filter((t) => t !== 'null')[0] : s.type;
  switch (type) {
    case undefined:
      out.push({ tool, path: at, problem: 'argument has no type' });
      return;
    case 'string':
      if (!s.pattern && !s.format)
        out.push({ tool, path: at, problem: 'free-form string (needs enum, pattern or format)' });
      return;
    case 'array':
      if (!s.items) out.push({ tool, path: at, problem: 'array without item schema' });
      else walk(s.items, `${path}[]`, tool, out);
      return;
    case 'object':
      if (s.additionalProperties !== false)
        out.push({ tool, path: at, problem: 'object accepts unknown properties' });
      for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, path ? `${path}.${k}` : k, tool, out);
      return;
    default:
      return;
  }
}
