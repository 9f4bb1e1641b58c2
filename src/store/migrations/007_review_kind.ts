import { sql } from 'kysely';
import type { StoreMigration } from './migration.js';

/**
 * What a review holds (src/store/review-record.ts): `tool_call` for a call the gateway parked,
 * `input` for a request the input gate flagged. Rows written before are filled in from the name
 * they were listed under; a row a process of an older build writes later keeps null, and the
 * reader tells its kind the same way.
 */
export const migration: StoreMigration = {
  name: '007_review_kind',
  async up(db) {
    await db.schema.alterTable('reviews').addColumn('kind', 'text').execute();
    await sql`update reviews set kind = case when tool = 'twinline.input' then 'input' else 'tool_call' end`.execute(
      db,
    );
  },
};
