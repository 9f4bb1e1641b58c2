import { type AdmissionSlotRepository, createAdmissionSlots } from './admission-slots.js';
import type { AuditSink } from './audit-record.js';
import {
  type AuditReader,
  createAuditReader,
  insertAuditBatch,
  sqliteAuditBatchWriter,
} from './audit-repository.js';
import { type AuditWriterStats, BatchedAuditWriter } from './audit-writer.js';
import { openConnection } from './connection.js';
import type { StoreDb } from './database.js';
import { migrateToLatest } from './migrate.js';
import { createReviewRepository, type ReviewRepository } from './review-repository.js';
import { type OpenStoreOptions, resolveStoreTarget, type StoreDialect } from './store-target.js';
import { createTaskRepository, type TaskRepository } from './task-repository.js';
import { ALL_TENANTS_ADMIN_SCOPE, type TenantScope, tenantScope } from './tenant-scope.js';
import { createTicketRepository, type TicketRepository } from './ticket-repository.js';
import type { WalCheckpointer, WalCheckpointStats } from './wal-checkpointer.js';

/** The repositories, all bound to one tenant scope. */
export interface TenantRepositories {
  readonly scope: TenantScope;
  readonly reviews: ReviewRepository;
  readonly tickets: TicketRepository;
  readonly tasks: TaskRepository;
  readonly audit: AuditReader;
}

/** The store's audit: the gateway's sink (`record`/`flush`), a cross-tenant reader and writer counters. */
export interface StoreAudit extends AuditSink, AuditReader {
  stats(): AuditWriterStats;
}

/**
 * Persistence for Twinline on SQLite or PostgreSQL through one Kysely query layer.
 *
 * Tenant isolation: code serving a tenant uses {@link Store.forTenant}, whose repositories add the
 * tenant predicate to every query (another tenant's row reads as `undefined`, a write naming
 * another tenant throws). {@link Store.admin} is the explicit cross-tenant view for the CLI,
 * operator consoles and trusted workers; `store.reviews`, `store.tickets` and `store.tasks` are
 * the same admin objects, kept at the top level because the gateway and workers address rows by
 * id they produced themselves. See `tenant-scope.ts`.
 */
export interface Store {
  readonly dialect: StoreDialect;
  readonly db: StoreDb;
  /** Audit sink + admin (cross-tenant) reader. */
  readonly audit: StoreAudit;
  /** Cross-tenant (admin) review queue; same object as `admin.reviews`. */
  readonly reviews: ReviewRepository;
  /** Cross-tenant (admin) tickets; same object as `admin.tickets`. */
  readonly tickets: TicketRepository;
  /** Cross-tenant (admin) tasks; same object as `admin.tasks`. */
  readonly tasks: TaskRepository;
  /** The explicit cross-tenant escape. */
  readonly admin: TenantRepositories;
  /** Deep-line admission slots shared by every process (caps compare tenants: no tenant scope). */
  readonly admission: AdmissionSlotRepository;
  /** Repositories bound to `tenant` (`*` and empty names are refused). */
  forTenant(tenant: string): TenantRepositories;
  /**
   * For a long-running server on a SQLite file: WAL checkpoints move to a background thread, off
   * the thread that serves requests (see `startWalCheckpointer`). A no-op on PostgreSQL and on an
   * in-memory database; `close()` stops it. Resolves once the thread has taken over.
   */
  checkpointInBackground(options?: { readonly intervalMs?: number }): Promise<void>;
  /** The background checkpointer's counters, or undefined when there is none. */
  checkpointStats(): WalCheckpointStats | undefined;
  /**
   * Flushes the audit, then closes the connection(s). While the database is unreachable this keeps
   * retrying rather than discard records; `audit.stats()` shows what is pending.
   */
  close(): Promise<void>;
}

/**
 * Opens (and migrates) the store. PostgreSQL when `url` or `TWINLINE_DATABASE_URL` is a
 * `postgres://` URL, else the SQLite file `sqliteFile` (default `.twinline/twinline.sqlite`,
 * directory created).
 */
export async function openStore(options: OpenStoreOptions = {}): Promise<Store> {
  const target = resolveStoreTarget(options);
  const { db, dialect, sqlite } = await openConnection(target);
  try {
    await migrateToLatest(db as unknown as Parameters<typeof migrateToLatest>[0], dialect);
  } catch (error) {
    await db.destroy().catch(() => {});
    throw error;
  }
  const repositories = (scope: TenantScope): TenantRepositories =>
    Object.freeze({
      scope,
      reviews: createReviewRepository(db, scope),
      tickets: createTicketRepository(db, scope),
      tasks: createTaskRepository(db, scope),
      audit: createAuditReader(db, scope),
    });
  const admin = repositories(ALL_TENANTS_ADMIN_SCOPE);
  const writer = new BatchedAuditWriter(
    sqlite ? sqliteAuditBatchWriter(db, sqlite) : (batch) => insertAuditBatch(db, batch),
    options.audit,
  );
  const audit: StoreAudit = {
    record: (rec) => writer.record(rec),
    flush: () => writer.flush(),
    stats: () => writer.stats(),
    query: (filter) => admin.audit.query(filter),
    get: (id) => admin.audit.get(id),
  };
  let closed: Promise<void> | undefined;
  let checkpointer: Promise<WalCheckpointer | undefined> | undefined;
  let checkpointerNow: WalCheckpointer | undefined;
  return {
    dialect,
    db,
    audit,
    reviews: admin.reviews,
    tickets: admin.tickets,
    tasks: admin.tasks,
    admin,
    admission: createAdmissionSlots(db, dialect),
    forTenant: (tenant) => repositories(tenantScope(tenant)),
    async checkpointInBackground(options) {
      if (!sqlite || target.dialect !== 'sqlite' || target.file === ':memory:' || closed) return;
      const file = target.file;
      checkpointer ??= import('./wal-checkpointer.js').then(async ({ startWalCheckpointer }) => {
        checkpointerNow = await startWalCheckpointer(sqlite, file, options);
        return checkpointerNow;
      });
      await checkpointer;
    },
    checkpointStats: () => checkpointerNow?.stats(),
    close() {
      closed ??= (async () => {
        await writer.close();
        // Stopped before the connection closes, which makes the last checkpoint itself.
        await (await checkpointer?.catch(() => undefined))?.stop();
        await db.destroy();
      })();
      return closed;
    },
  };
}
