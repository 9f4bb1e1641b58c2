import type { Kysely } from 'kysely';
import type { StoreDb } from '../../store/index.js';
import type { PreferenceStore } from './preference-store.js';

/** Row of `user_preferences` (migration `002_user_preferences`). */
interface UserPreferencesTable {
  tenant: string;
  user_id: string;
  key: string;
  value: string;
  updated_by: string;
  updated_at: string;
}

/** Preferences persisted in the store (SQLite or PostgreSQL), one row per (tenant, user, key). */
export class SqlPreferenceStore implements PreferenceStore {
  private readonly db: Kysely<{ user_preferences: UserPreferencesTable }>;

  constructor(db: StoreDb) {
    this.db = db.withTables<{ user_preferences: UserPreferencesTable }>() as unknown as Kysely<{
      user_preferences: UserPreferencesTable;
    }>;
  }

  async load(tenant: string, user: string): Promise<Record<string, string>> {
    const rows = await this.db
      .selectFrom('user_preferences')
      .select(['key', 'value'])
      .where('tenant', '=', tenant)
      .where('user_id', '=', user)
      .execute();
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  }

  async save(tenant: string, user: string, key: string, value: string, updatedBy: string): Promise<void> {
    const updated_at = new Date().toISOString();
    await this.db
      .insertInto('user_preferences')
      .values({ tenant, user_id: user, key, value, updated_by: updatedBy, updated_at })
      .onConflict((oc) =>
        oc.columns(['tenant', 'user_id', 'key']).doUpdateSet({ value, updated_by: updatedBy, updated_at }),
      )
      .execute();
  }
}
