import { ConfigError } from '../core/index.js';

/**
 * An agent definition that cannot be loaded. `where` is `path:line`; `field` names the
 * frontmatter key that was wrong (absent when the file as a whole is malformed).
 */
export class AgentDefinitionError extends ConfigError {
  readonly path: string;
  readonly line: number;
  readonly field: string | undefined;
  /** The agent name, when the file got far enough to declare one: it blocks same-name fallbacks. */
  agentName: string | undefined;

  constructor(path: string, line: number, field: string | undefined, message: string) {
    super('access.definition-invalid', field ? `${field}: ${message}` : message, {
      where: `${path}:${line}`,
      details: { path, line, ...(field ? { field } : {}) },
    });
    this.path = path;
    this.line = line;
    this.field = field;
    this.agentName = undefined;
  }
}
