import { resolve } from 'node:path';
import type { StoreDialect } from './migrations/index.js';

/** Where the store lives, decided before anything is opened. */
export type StoreTarget =
  | { readonly dialect: 'sqlite'; readonly file: string }
  | { readonly dialect: 'postgres'; readonly url: string };

/** Default SQLite file, relative to the working directory. */
export const DEFAULT_SQLITE_FILE = '.twinline/twinline.sqlite';

/** Options of `openStore`. */
export interface OpenStoreOptions {
  /**
   * `postgres://…` / `postgresql://…` selects PostgreSQL; `sqlite:<file>` or `file:<file>` selects a
   * SQLite file. Falls back to `TWINLINE_DATABASE_URL`, then to `sqliteFile`.
   */
  readonly url?: string;
  /** SQLite file (or `:memory:`) when no URL is given; default `.twinline/twinline.sqlite`. */
  readonly sqliteFile?: string;
  /** Environment to read `TWINLINE_DATABASE_URL` from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Audit writer tuning; defaults suit the gateway. */
  readonly audit?: AuditWriterOptions;
}

/** Tuning of the batched audit writer. */
export interface AuditWriterOptions {
  /** Records per batch; a full batch is written at once (default 256). */
  readonly batchSize?: number;
  /** Longest a record waits before its batch is written (default 20 ms). */
  readonly maxDelayMs?: number;
  /** Records held in memory at most while the database is failing; beyond this, records are dropped and counted (default 100 000). */
  readonly maxBuffered?: number;
  /** Retry backoff after a failed write: doubles from `minBackoffMs` up to `maxBackoffMs` (defaults 10 ms / 1000 ms). */
  readonly minBackoffMs?: number;
  readonly maxBackoffMs?: number;
}

/** Picks the dialect and location from options and environment. Pure. */
export function resolveStoreTarget(options: OpenStoreOptions = {}, cwd = process.cwd()): StoreTarget {
  const env = options.env ?? process.env;
  const url = options.url ?? (options.sqliteFile === undefined ? env['TWINLINE_DATABASE_URL'] : undefined);
  if (url && /^postgres(ql)?:\/\//i.test(url)) return { dialect: 'postgres', url };
  if (url) {
    const file = url.replace(/^(sqlite|file):(\/\/)?/i, '');
    return { dialect: 'sqlite', file: file === ':memory:' ? file : resolve(cwd, file) };
  }
  const file = options.sqliteFile ?? DEFAULT_SQLITE_FILE;
  return { dialect: 'sqlite', file: file === ':memory:' ? file : resolve(cwd, file) };
}

export type { StoreDialect };
