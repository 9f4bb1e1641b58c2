import { sql } from 'kysely';
import { decidedBy, type StageDecision } from '../../core/index.js';
import type { StoreMigration } from './migration.js';

const BACKFILL_BATCH = 1000;

/**
 * The audit's decision log (docs/operations.md, "Decision log"): the deciding rule and stage as
 * columns the console filters on (for an executed call, the grant that allowed it), the review a
 * record belongs to, and a versioned JSON log with the arguments redacted at the audit's data
 * level; and the deep task a review belongs to. Rows written before keep their hash only; their
 * "decided by" and review are filled in from what they already hold.
 */
export const migration: StoreMigration = {
  name: '006_audit_decision_log',
  async up(db) {
    await db.schema.alterTable('audit_records').addColumn('decided_stage', 'text').execute();
    await db.schema.alterTable('audit_records').addColumn('decided_rule', 'text').execute();
    await db.schema.alterTable('audit_records').addColumn('review_id', 'text').execute();
    await db.schema.alterTable('audit_records').addColumn('decision_log', 'text').execute();
    // A review's deep task, so the console links a review to its task and the request behind it.
    await db.schema.alterTable('reviews').addColumn('task_id', 'text').execute();
    // Partial indexes: the hot path writes executed calls outside any review, which neither
    // index holds, so the audit's insert rate is what it was. Refusals are found by rule; a
    // review's records by its id. Other filters read the (tenant, time) index.
    await db.schema
      .createIndex('audit_tenant_rule_time')
      .on('audit_records')
      .columns(['tenant', 'decided_rule', 'time'])
      .where(sql.ref('status'), '<>', 'executed')
      .execute();
    await db.schema
      .createIndex('audit_tenant_review')
      .on('audit_records')
      .columns(['tenant', 'review_id'])
      .where(sql.ref('review_id'), 'is not', null)
      .execute();
    // Batches in id order: each pass reads the next ids after the last one it updated.
    let after = '';
    for (;;) {
      const rows = await sql<{
        id: string;
        status: string;
        call_id: string;
        decision_path: string;
        result_summary: string;
      }>`
        select id, status, call_id, decision_path, result_summary from audit_records
        where id > ${after} and decided_stage is null order by id limit ${BACKFILL_BATCH}`.execute(db);
      if (rows.rows.length === 0) break;
      for (const row of rows.rows) {
        let path: StageDecision[] = [];
        try {
          path = JSON.parse(row.decision_path) as StageDecision[];
        } catch {
          // A path that does not parse keeps null columns; the record is read as it was.
        }
        const d = decidedBy(row.status, path);
        // Queued calls said so in their summary; the run of an approved review had its id as call id.
        const review =
          /^queued for review (\S+)$/.exec(row.result_summary)?.[1] ??
          /^review-(.+)$/.exec(row.call_id)?.[1] ??
          null;
        if (d || review)
          await sql`update audit_records set decided_stage = ${d?.stage ?? null},
            decided_rule = ${d?.ruleId ?? null}, review_id = ${review} where id = ${row.id}`.execute(db);
      }
      after = rows.rows[rows.rows.length - 1]!.id;
    }
  },
};
