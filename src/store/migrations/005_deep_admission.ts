import type { StoreMigration } from './migration.js';

/**
 * Deep-line admission slots shared by every process of a deployment (src/store/admission-slots.ts):
 * one row per task that holds a slot, with the process that holds it and until when — a process
 * that dies stops renewing, and its slots lapse like a task lease.
 */
export const migration: StoreMigration = {
  name: '005_deep_admission',
  async up(db) {
    await db.schema
      .createTable('deep_admission_slots')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('lease_until', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('deep_admission_slots_tenant')
      .on('deep_admission_slots')
      .columns(['tenant', 'user_id'])
      .execute();
  },
};
