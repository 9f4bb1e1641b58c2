import type { Kysely } from 'kysely';

/** The two SQL dialects the store speaks. */
export type StoreDialect = 'sqlite' | 'postgres';

/**
 * One versioned schema change. `name` starts with a zero-padded number (`001_foundation`) because
 * migrations run in name order; `up` receives the dialect for the rare statement that differs.
 * A migration, once committed, is never edited: change the schema with a new file.
 */
export interface StoreMigration {
  readonly name: string;
  up(db: Kysely<unknown>, dialect: StoreDialect): Promise<void>;
}
