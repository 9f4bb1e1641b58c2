import { sql } from 'kysely';
import type { StoreDb } from './database.js';
import type { StoreDialect } from './migrations/index.js';

/** Caps a slot must fit under; the same shape as the deep line's admission limits. */
export interface SlotLimits {
  readonly concurrency: number;
  readonly perTenant: number;
  readonly perUser: number;
}

/** A slot to take: the task's id, whose it is, and which process holds it. */
export interface SlotClaim {
  readonly id: string;
  readonly tenant: string;
  readonly user: string;
  readonly owner: string;
}

/** Why a slot was not taken: the cap that was full. */
export type SlotOutcome = 'acquired' | 'full' | 'tenant-full' | 'user-full';

/**
 * Deep-line admission slots in the store, shared by every process of a deployment: the caps
 * (in all, per tenant, per user) then hold across processes, the way task leases do. A slot is
 * held until `lease_until`; its holder renews it while the task runs and deletes it when done, and
 * a process that dies lets its slots lapse. Cross-tenant by nature (the caps compare tenants), so
 * it lives beside the admin view, not in a tenant scope.
 */
export interface AdmissionSlotRepository {
  /** Takes a slot if every cap still has room; one statement under a lock, so no cap is overrun. */
  tryAcquire(claim: SlotClaim, limits: SlotLimits, ttlMs: number, now?: Date): Promise<SlotOutcome>;
  /** Extends every slot `owner` holds. */
  renew(owner: string, ttlMs: number, now?: Date): Promise<void>;
  release(id: string, owner: string): Promise<void>;
  /** Live slots of other processes (for queue estimates). */
  heldByOthers(owner: string, now?: Date): Promise<{ tenant: string; user: string }[]>;
}

/** The advisory lock that serialises admission decisions on PostgreSQL (an arbitrary constant). */
const PG_ADMISSION_LOCK = 0x7477_6c61; // "twla"

export function createAdmissionSlots(db: StoreDb, dialect: StoreDialect): AdmissionSlotRepository {
  return {
    async tryAcquire(claim, limits, ttlMs, now = new Date()) {
      const at = now.toISOString();
      const until = new Date(now.getTime() + ttlMs).toISOString();
      const { id, tenant, user, owner } = claim;
      const decide = async (trx: StoreDb): Promise<SlotOutcome> => {
        await trx.deleteFrom('deep_admission_slots').where('lease_until', '<=', at).execute();
        const inserted = await sql`
          INSERT INTO deep_admission_slots (id, tenant, user_id, owner, lease_until)
          SELECT ${id}, ${tenant}, ${user}, ${owner}, ${until}
          WHERE NOT EXISTS (SELECT 1 FROM deep_admission_slots WHERE id = ${id})
            AND (SELECT count(*) FROM deep_admission_slots) < ${limits.concurrency}
            AND (SELECT count(*) FROM deep_admission_slots WHERE tenant = ${tenant}) < ${limits.perTenant}
            AND (SELECT count(*) FROM deep_admission_slots WHERE tenant = ${tenant} AND user_id = ${user})
                < ${limits.perUser}`.execute(trx);
        if (Number(inserted.numAffectedRows ?? 0) === 1) return 'acquired';
        // Not taken: say which cap was full (or that this very slot is already held).
        const row = (
          await sql<{
            total: number | string;
            t: number | string | null;
            u: number | string | null;
            mine: number | string | null;
          }>`
            SELECT
              count(*) AS total,
              sum(CASE WHEN tenant = ${tenant} THEN 1 ELSE 0 END) AS t,
              sum(CASE WHEN tenant = ${tenant} AND user_id = ${user} THEN 1 ELSE 0 END) AS u,
              sum(CASE WHEN id = ${id} THEN 1 ELSE 0 END) AS mine
            FROM deep_admission_slots`.execute(trx)
        ).rows[0];
        const n = (v: number | string | null | undefined) => Number(v ?? 0);
        if (n(row?.mine) > 0) return 'acquired';
        if (n(row?.total) >= limits.concurrency) return 'full';
        if (n(row?.t) >= limits.perTenant) return 'tenant-full';
        return 'user-full';
      };
      // PostgreSQL has no predicate lock under READ COMMITTED: two processes could both count
      // room and both insert, so admission decisions take a transaction-scoped advisory lock.
      // On SQLite the conditional INSERT is one statement, which runs alone (and a transaction
      // that reads before it writes could deadlock another process's).
      if (dialect !== 'postgres') return decide(db);
      return db.transaction().execute(async (trx) => {
        await sql`SELECT pg_advisory_xact_lock(${PG_ADMISSION_LOCK})`.execute(trx);
        return decide(trx);
      });
    },

    async renew(owner, ttlMs, now = new Date()) {
      await db
        .updateTable('deep_admission_slots')
        .set({ lease_until: new Date(now.getTime() + ttlMs).toISOString() })
        .where('owner', '=', owner)
        .execute();
    },

    async release(id, owner) {
      await db.deleteFrom('deep_admission_slots').where('id', '=', id).where('owner', '=', owner).execute();
    },

    async heldByOthers(owner, now = new Date()) {
      const rows = await db
        .selectFrom('deep_admission_slots')
        .select(['tenant', 'user_id'])
        .where('owner', '!=', owner)
        .where('lease_until', '>', now.toISOString())
        .execute();
      return rows.map((r) => ({ tenant: r.tenant, user: r.user_id }));
    },
  };
}
