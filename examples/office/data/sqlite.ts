import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

let driver: typeof BetterSqlite3 | undefined;

/**
 * Opens a SQLite file with better-sqlite3, loading the driver on first use: registering the
 * office tools (as `twinline check` does for a dry run) never opens a tenant's data.
 */
export function openDatabase(file: string, options?: BetterSqlite3.Options): BetterSqlite3.Database {
  driver ??= createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  return new driver(file, options);
}

export type Database = BetterSqlite3.Database;
