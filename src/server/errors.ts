import type { z } from 'zod';
import { TwinlineError } from '../core/index.js';

/** A request the API refuses before doing anything: names the field that was wrong. */
export class BadRequestError extends TwinlineError {
  readonly status: number;
  constructor(message: string, field?: string, status = 400) {
    super('bad_request', message, field ? { where: field } : {});
    this.status = status;
  }
}

export class ForbiddenError extends TwinlineError {
  readonly status = 403;
  constructor(message: string, code = 'forbidden') {
    super(code, message);
  }
}

export class NotFoundError extends TwinlineError {
  readonly status = 404;
  constructor(what: string) {
    super('not_found', `${what} not found`);
  }
}

/** Parses `value` with `schema` or throws a `BadRequestError` naming the first bad field. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const r = schema.safeParse(value ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const path = issue?.path.length ? `${where}.${issue.path.join('.')}` : where;
  // TwinlineError prefixes the message with `where` (the field path).
  throw new BadRequestError(issue?.message ?? 'invalid', path);
}
