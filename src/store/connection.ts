import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { importExternal } from '../core/index.js';
import type { Database } from './database.js';
import { StoreError } from './errors.js';
import type { StoreTarget } from './store-target.js';

/** An open Kysely instance plus the dialect it speaks. */
export interface StoreConnection {
  readonly db: Kysely<Database>;
  readonly dialect: StoreTarget['dialect'];
  /**
   * The SQLite database under `db` (SQLite only), for the audit's prepared batch insert. Use it
   * only inside `db.connection().execute(…)`, so it never interleaves with a Kysely transaction.
   */
  readonly sqlite?: import('better-sqlite3').Database;
}

/** How long a SQLite writer waits for another connection's lock before failing. */
const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * Opens the database. Drivers are imported dynamically so that a SQLite user never loads `pg`
 * and a one-shot command that never touches the store loads neither.
 */
export async function openConnection(target: StoreTarget): Promise<StoreConnection> {
  if (target.dialect === 'postgres') {
    const pg = (await importExternal<typeof import('pg')>('pg')).default;
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    // An idle client whose server connection dies emits 'error' on the pool; unhandled, that
    // would crash the process. The next query simply gets a fresh client.
    pool.on('error', () => {});
    // pg-pool detaches its idle listener while a client is checked out, so a connection killed in
    // that window would raise an unhandled 'error'. The failing query still rejects on its own.
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    try {
      const client = await pool.connect();
      client.release();
    } catch (cause) {
      await pool.end().catch(() => {});
      throw new StoreError('store.connect-failed', `cannot connect to PostgreSQL: ${String(cause)}`, {
        where: redactUrl(target.url),
        cause,
      });
    }
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  const BetterSqlite = (await importExternal<{ default: typeof import('better-sqlite3') }>('better-sqlite3'))
    .default;
  if (target.file !== ':memory:') mkdirSync(dirname(target.file), { recursive: true });
  let database: InstanceType<typeof BetterSqlite>;
  try {
    database = new BetterSqlite(target.file);
    database.pragma('journal_mode = WAL');
    database.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    // WAL + NORMAL: a commit survives a process crash; only an OS crash can lose the last commits.
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
  } catch (cause) {
    throw new StoreError('store.connect-failed', `cannot open SQLite file: ${String(cause)}`, {
      where: target.file,
      cause,
    });
  }
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database }) }),
    dialect: 'sqlite',
    sqlite: database,
  };
}

/** The URL without its password, for error messages. */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}
