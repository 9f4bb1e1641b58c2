import type { z } from 'zod';
import { decide, type StageDecision } from '../../core/index.js';
import type { GatewayStage, PreparedCall } from '../types.js';

/** Validates and normalises arguments with the tool's zod schema; later stages see the parsed args. */
export const schemaStage: GatewayStage = {
  name: 'schema',
  evaluate(call: PreparedCall): StageDecision {
    return validateArgs(call.tool.inputSchema, call.tool.name, call.args);
  },
};

/** Parses `args`; on failure denies naming every offending field path. Nothing is executed. */
export function validateArgs(schema: z.ZodType, tool: string, args: unknown): StageDecision {
  const parsed = schema.safeParse(args);
  if (parsed.success) {
    return {
      verdict: 'allow',
      stage: 'schema',
      ruleId: 'schema.valid',
      reason: 'arguments valid',
      updatedArgs: parsed.data,
    };
  }
  const issues = parsed.error.issues.map((i) => ({
    path: i.path.length ? i.path.map(String).join('.') : '(root)',
    message: i.message,
  }));
  const text = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  return decide('deny', 'schema', 'schema.invalid', `Invalid arguments for ${tool}: ${text}`, {
    details: { issues },
  });
}
