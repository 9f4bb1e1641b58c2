import type { z } from 'zod';
import { TwinlineError } from '../core/index.js';

/** Where a stored value came from: its kind, the row that holds it and the column. */
export interface StoredAt {
  /** What the value is, e.g. `task state`, `review`. */
  readonly kind: string;
  /** The row's id. */
  readonly row: string;
  /** The column, e.g. `tasks.plan`. */
  readonly field: string;
}

/**
 * A stored row that does not hold what its kind says (docs/architecture.md, "Versioned stored
 * state"): never read as something it is not. `where` names the kind, the row and the field (and
 * the path inside a JSON column).
 */
export class StoredStateError extends TwinlineError {
  readonly kind: string;
  readonly row: string;
  readonly field: string;

  constructor(at: StoredAt, message: string, path?: string) {
    const field = path ? `${at.field}.${path}` : at.field;
    super('store.bad_state', message, {
      where: `${at.kind} ${at.row}: ${field}`,
      details: { kind: at.kind, row: at.row, field },
    });
    this.kind = at.kind;
    this.row = at.row;
    this.field = field;
  }
}

/** A JSON column's text as a value, or a `StoredStateError` naming the row and field. */
export function parseStoredJson(text: string, at: StoredAt): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new StoredStateError(at, `not JSON (${(err as Error).message})`);
  }
}

/** A value checked against `schema`, or a `StoredStateError` naming its first bad field. */
export function checkStored<S extends z.ZodType>(schema: S, value: unknown, at: StoredAt): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new StoredStateError(at, issue?.message ?? 'invalid', issue?.path.map(String).join('.') || undefined);
}

/**
 * One historical shape of a stored kind: its schema, and how a value of it becomes a value of the
 * next version. The last entry is the current shape and has no `up`.
 */
export interface StoredVersion {
  readonly schema: z.ZodType;
  readonly up?: (value: never) => unknown;
}

/** A stored kind's one reader and one writer. */
export interface StoredKind<T> {
  readonly kind: string;
  /** The version `write` stamps. */
  readonly version: number;
  /** Checks a stored value against the shape of its version and lifts it to the current one. */
  read(value: unknown, at: Omit<StoredAt, 'kind'>): T;
  /** The value as it is stored: the current version, stamped `schemaVersion`. */
  write(value: T): T & { readonly schemaVersion: number };
}

/**
 * Defines a stored kind from its versions, oldest (1) first. A stored value names its version in
 * `schemaVersion`; a value without one is version 1 (what was stored before versions existed).
 * Each version's schema describes the value without `schemaVersion`.
 */
export function storedKind<T>(kind: string, versions: readonly StoredVersion[]): StoredKind<T> {
  const version = versions.length;
  return {
    kind,
    version,
    read(value, where) {
      const at = { kind, ...where };
      let v = 1;
      let body: unknown = value;
      if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'schemaVersion' in value) {
        const { schemaVersion, ...rest } = value as Record<string, unknown>;
        if (
          !Number.isInteger(schemaVersion) ||
          (schemaVersion as number) < 1 ||
          (schemaVersion as number) > version
        )
          throw new StoredStateError(
            at,
            `unknown version ${JSON.stringify(schemaVersion)} (this build reads 1 to ${version})`,
            'schemaVersion',
          );
        v = schemaVersion as number;
        body = rest;
      }
      for (; v <= version; v++) {
        const step = versions[v - 1]!;
        const checked = checkStored(step.schema, body, at);
        body = step.up ? step.up(checked as never) : checked;
      }
      return body as T;
    },
    write(value) {
      return { ...value, schemaVersion: version };
    },
  };
}
