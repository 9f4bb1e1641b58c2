import { TwinlineError } from '../core/index.js';

/** Stable codes of the registration refusals, one per rule `ToolRegistry.register` enforces. */
export type ToolRegistrationCode =
  | 'tool.invalid-name'
  | 'tool.duplicate-name'
  | 'tool.review-required'
  | 'tool.destructive-read-only'
  | 'tool.invalid-timeout'
  | 'tool.cache-on-write'
  | 'tool.invalid-cache-ttl'
  | 'tool.unknown-risk-level'
  | 'tool.unknown-data-level'
  | 'tool.unknown-kind'
  | 'tool.invalid-schema'
  | 'tool.invalid-permissions'
  | 'tool.missing-execute';

/**
 * A tool manifest the registry refuses. Names the tool and the manifest field at fault so a
 * start-up failure points straight at the line to fix.
 */
export class ToolRegistrationError extends TwinlineError {
  readonly tool: string;
  readonly field: string;

  constructor(code: ToolRegistrationCode, tool: string, field: string, message: string) {
    super(code, message, { where: `tool ${JSON.stringify(tool)} field ${field}`, details: { tool, field } });
    this.tool = tool;
    this.field = field;
  }
}
