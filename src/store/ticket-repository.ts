import { randomUUID } from 'node:crypto';
import type { StoreDb, TicketsTable } from './database.js';
import { restrictToTenant, type TenantScope, tenantForWrite } from './tenant-scope.js';

/** A request the system could not serve (degraded mode, refused line) handed to people. */
export interface TicketRecord {
  readonly id: string;
  readonly tenant: string;
  readonly user: string;
  readonly sessionId?: string;
  readonly request: string;
  readonly reason: string;
  readonly status: string;
  readonly createdAt: string;
}

export interface TicketRequest {
  /** Required in the admin view; must match (or may be omitted) in a tenant-bound repository. */
  readonly tenant?: string;
  readonly user: string;
  readonly sessionId?: string;
  readonly request: string;
  readonly reason: string;
}

export interface TicketRepository {
  create(ticket: TicketRequest): Promise<{ id: string }>;
  /** Newest first; default limit 100. `tenant` filters only in the admin view. */
  list(filter?: { tenant?: string; limit?: number }): Promise<TicketRecord[]>;
  get(id: string): Promise<TicketRecord | undefined>;
}

export function createTicketRepository(db: StoreDb, scope: TenantScope): TicketRepository {
  return {
    async create(ticket) {
      const tenant = tenantForWrite(scope, ticket.tenant, 'tickets.create');
      const id = randomUUID();
      await db
        .insertInto('tickets')
        .values({
          id,
          tenant,
          user_id: ticket.user,
          session_id: ticket.sessionId ?? null,
          request: ticket.request,
          reason: ticket.reason,
          status: 'open',
          created_at: new Date().toISOString(),
        })
        .execute();
      return { id };
    },
    async list(filter = {}) {
      const limit = Math.min(10_000, Math.max(1, Math.floor(filter.limit ?? 100)));
      const rows = await restrictToTenant(
        db.selectFrom('tickets').selectAll(),
        scope,
        'tickets.list',
        filter.tenant,
      )
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(fromRow);
    },
    async get(id) {
      const row = await restrictToTenant(db.selectFrom('tickets').selectAll(), scope, 'tickets.get')
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? fromRow(row) : undefined;
    },
  };
}

function fromRow(row: TicketsTable): TicketRecord {
  return {
    id: row.id,
    tenant: row.tenant,
    user: row.user_id,
    ...(row.session_id !== null ? { sessionId: row.session_id } : {}),
    request: row.request,
    reason: row.reason,
    status: row.status,
    createdAt: row.created_at,
  };
}
