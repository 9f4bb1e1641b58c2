import type { StoreMigration } from './migration.js';

/** Audit, review queue, tickets, and the deep line's task / step / raw-output tables. */
export const migration: StoreMigration = {
  name: '001_foundation',
  async up(db) {
    await db.schema
      .createTable('audit_records')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('time', 'text', (c) => c.notNull())
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('session_id', 'text', (c) => c.notNull())
      .addColumn('agent', 'text', (c) => c.notNull())
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('tool', 'text', (c) => c.notNull())
      .addColumn('call_id', 'text', (c) => c.notNull())
      .addColumn('args_hash', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('decision_path', 'text', (c) => c.notNull())
      .addColumn('result_summary', 'text', (c) => c.notNull())
      .addColumn('duration_ms', 'double precision', (c) => c.notNull())
      .addColumn('watermark', 'text')
      .addColumn('task_id', 'text')
      .execute();
    await db.schema
      .createIndex('audit_tenant_time')
      .on('audit_records')
      .columns(['tenant', 'time'])
      .execute();
    await db.schema
      .createIndex('audit_tenant_user_time')
      .on('audit_records')
      .columns(['tenant', 'user_id', 'time'])
      .execute();
    await db.schema.createIndex('audit_tool_time').on('audit_records').columns(['tool', 'time']).execute();

    await db.schema
      .createTable('reviews')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('session_id', 'text', (c) => c.notNull())
      .addColumn('agent', 'text', (c) => c.notNull())
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('tool', 'text', (c) => c.notNull())
      .addColumn('args', 'text', (c) => c.notNull())
      .addColumn('identity', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('decision_path', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('decided_by', 'text')
      .addColumn('decided_at', 'text')
      .addColumn('decision_note', 'text')
      .addColumn('result_summary', 'text')
      .addColumn('completed_at', 'text')
      .execute();
    await db.schema
      .createIndex('reviews_tenant_status')
      .on('reviews')
      .columns(['tenant', 'status', 'created_at'])
      .execute();
    await db.schema
      .createIndex('reviews_status_expiry')
      .on('reviews')
      .columns(['status', 'expires_at'])
      .execute();

    await db.schema
      .createTable('tickets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('session_id', 'text')
      .addColumn('request', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('tickets_tenant_time')
      .on('tickets')
      .columns(['tenant', 'created_at'])
      .execute();

    await db.schema
      .createTable('tasks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('line', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('request', 'text', (c) => c.notNull())
      .addColumn('plan', 'text')
      .addColumn('current_step', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'text')
      .execute();
    await db.schema
      .createIndex('tasks_tenant_status')
      .on('tasks')
      .columns(['tenant', 'status', 'created_at'])
      .execute();

    await db.schema
      .createTable('task_steps')
      .addColumn('task_id', 'text', (c) => c.notNull())
      .addColumn('step_no', 'integer', (c) => c.notNull())
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('goal', 'text', (c) => c.notNull())
      .addColumn('tool', 'text')
      .addColumn('params', 'text')
      .addColumn('params_validated', 'integer', (c) => c.notNull())
      .addColumn('idempotency_key', 'text', (c) => c.unique())
      .addColumn('output_summary', 'text')
      .addColumn('raw_output_ref', 'text')
      .addColumn('error', 'text')
      .addColumn('started_at', 'text')
      .addColumn('finished_at', 'text')
      .addPrimaryKeyConstraint('task_steps_pk', ['task_id', 'step_no'])
      .execute();

    await db.schema
      .createTable('raw_outputs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('task_id', 'text', (c) => c.notNull())
      .addColumn('step_no', 'integer', (c) => c.notNull())
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('raw_outputs_task')
      .on('raw_outputs')
      .columns(['task_id', 'step_no'])
      .execute();

    await db.schema
      .createTable('idempotency_keys')
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('task_id', 'text')
      .addColumn('step_no', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['tenant', 'key'])
      .execute();
  },
};
