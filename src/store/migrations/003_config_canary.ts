import type { StoreMigration } from './migration.js';

/**
 * Versioned configuration and canary roll-outs (src/rollout): the registered config versions,
 * one row per roll-out (at most one `running`), and metrics recorded per version.
 */
export const migration: StoreMigration = {
  name: '003_config_canary',
  async up(db) {
    await db.schema
      .createTable('config_versions')
      .addColumn('version', 'text', (c) => c.primaryKey())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('config_path', 'text', (c) => c.notNull())
      .addColumn('config_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('config_rollouts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('stable_version', 'text')
      .addColumn('canary_version', 'text', (c) => c.notNull())
      .addColumn('basis_points', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('ended_at', 'text')
      .execute();
    await db.schema
      .createIndex('config_rollouts_status')
      .on('config_rollouts')
      .columns(['status', 'started_at'])
      .execute();
    await db.schema
      .createTable('config_version_metrics')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('version', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('recorded_at', 'text', (c) => c.notNull())
      .addColumn('total', 'integer', (c) => c.notNull())
      .addColumn('passed', 'integer', (c) => c.notNull())
      .addColumn('misuse', 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('config_version_metrics_version')
      .on('config_version_metrics')
      .columns(['version', 'recorded_at'])
      .execute();
  },
};
