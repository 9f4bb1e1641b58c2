import type { StoreMigration } from './migration.js';

/** The sandbox profile a call's processes ran under (docs/sandbox.md); null for tools that start none. */
export const migration: StoreMigration = {
  name: '004_audit_sandbox',
  async up(db) {
    await db.schema.alterTable('audit_records').addColumn('sandbox', 'text').execute();
  },
};
