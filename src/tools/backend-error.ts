import { TwinlineError } from '../core/index.js';

/**
 * Thrown by a tool when its own backend failed (an HTTP 5xx, a lost connection, an overloaded
 * service) rather than the caller's request (bad arguments, a record that is not there). Only
 * such failures — and timeouts — count towards a tool's tool-wide circuit breaker, so one
 * tenant's bad arguments cannot make a tool unavailable to the others (docs/server.md).
 */
export class ToolBackendError extends TwinlineError {
  /** HTTP status of the backend's answer, when there was one. */
  readonly status: number | undefined;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super('tool.backend-failed', message, {
      ...(options.cause !== undefined ? { cause: options.cause } : {}),
      ...(options.status !== undefined ? { details: { status: options.status } } : {}),
    });
    this.status = options.status;
  }
}
