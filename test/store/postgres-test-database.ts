import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL server the tests use when it answers. */
export const TEST_POSTGRES_URL =
  process.env['TWINLINE_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A database created for one test file, dropped afterwards, so parallel runs never share tables. */
export interface TestDatabase {
  readonly url: string;
  /** Runs SQL on the server as a separate session (for sabotage: terminate backends, …). */
  adminQuery(text: string): Promise<pg.QueryResult>;
  drop(): Promise<void>;
}

/** Creates a fresh database, or returns undefined (with a console message) when no server answers. */
export async function createTestDatabase(): Promise<TestDatabase | undefined> {
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch (error) {
    console.warn(
      `[test/store] PostgreSQL not reachable at ${TEST_POSTGRES_URL} — PostgreSQL store tests SKIPPED (${String(error)})`,
    );
    return undefined;
  }
  const name = `twinline_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    adminQuery: (text) => admin.query(text),
    async drop() {
      // A pg pool's end() resolves before its sockets have closed; dropping WITH (FORCE) while one
      // is still closing terminates it, and a pool with no error listener (a test's own Kysely
      // pool) reports that as an unhandled error. So wait, briefly, for sessions to leave first.
      for (let i = 0; i < 40; i++) {
        const open = await admin.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where datname = $1',
          [name],
        );
        if ((open.rows[0]?.n ?? 0) === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
