/**
 * Base of every error Twinline raises on purpose. `code` is stable and machine-readable; `where`
 * names the thing that was wrong (a file and line, a tool and field, a protocol line) so the
 * message can point a person at it.
 */
export class TwinlineError extends Error {
  readonly code: string;
  readonly where: string | undefined;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: string,
    message: string,
    options?: { where?: string; details?: Record<string, unknown>; cause?: unknown },
  ) {
    super(options?.where ? `${options.where}: ${message}` : message, { cause: options?.cause });
    this.name = new.target.name;
    this.code = code;
    this.where = options?.where;
    this.details = options?.details;
  }

  toJSON(): Record<string, unknown> {
    return { error: this.code, message: this.message, where: this.where, details: this.details };
  }
}

/** Configuration that cannot be loaded or is invalid. */
export class ConfigError extends TwinlineError {}
