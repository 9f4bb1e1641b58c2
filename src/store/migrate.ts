import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import { StoreError } from './errors.js';
import { MIGRATIONS, type StoreDialect, type StoreMigration } from './migrations/index.js';

/** Name of the table that records which migrations have run. */
export const MIGRATION_TABLE = 'twinline_migrations';

/**
 * Brings the schema up to date. Kysely's migrator records applied migrations in
 * `twinline_migrations` and holds a lock while it runs (a PostgreSQL advisory lock, so several
 * processes opening the same database at once apply each migration exactly once).
 */
export async function migrateToLatest(
  db: Kysely<unknown>,
  dialect: StoreDialect,
  migrations: readonly StoreMigration[] = MIGRATIONS,
): Promise<string[]> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const m of migrations) out[m.name] = { up: (trx) => m.up(trx, dialect) };
      return out;
    },
  };
  const migrator = new Migrator({
    db,
    provider,
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: `${MIGRATION_TABLE}_lock`,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new StoreError('store.migration-failed', `migration ${failed} failed: ${String(error)}`, {
      where: `src/store/migrations/${failed}.ts`,
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
