import type { StoreMigration } from './migration.js';

/**
 * User preferences shared by the lines (src/context/memory): one row per (tenant, user, key);
 * values are enumerated by the context module's whitelist before they are written.
 */
export const migration: StoreMigration = {
  name: '002_user_preferences',
  async up(db) {
    await db.schema
      .createTable('user_preferences')
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('user_preferences_pk', ['tenant', 'user_id', 'key'])
      .execute();
  },
};
