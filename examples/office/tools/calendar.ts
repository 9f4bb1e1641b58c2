import { z } from 'zod';
import type { ToolSpec } from '../../../src/tools/index.js';
import {
  ALL_ROLES,
  isoDate,
  isoDateTime,
  READ_ONLY,
  READ_TTL_MS,
  singleLineText,
  userName,
  WRITE,
} from './common.js';
import type { OfficeData } from './tenant-data.js';

interface EventRow {
  id: string;
  title: string;
  start: string;
  end: string;
  attendees: string;
  organizer: string;
  status: string;
}

const eventId = z.string().regex(/^evt-\d{4}$/, 'an event id such as evt-0001');

function toEvent(r: EventRow) {
  return {
    id: r.id,
    title: r.title,
    start: r.start,
    end: r.end,
    attendees: JSON.parse(r.attendees) as string[],
    organizer: r.organizer,
    status: r.status,
  };
}

/** Calendar tools: list, reschedule and cancel events of the caller's tenant. */
export function calendarTools(data: OfficeData): ToolSpec[] {
  const list: ToolSpec<{ from: string; to: string; attendee?: string | undefined }> = {
    name: 'calendar_list',
    description: 'List calendar events between two dates (inclusive), optionally only those a user attends.',
    inputSchema: z.strictObject({ from: isoDate, to: isoDate, attendee: userName.optional() }),
    annotations: READ_ONLY,
    riskLevel: 'low',
    permissions: { allowedRoles: ALL_ROLES, requiredDataLevel: 'L1', category: 'calendar' },
    requiresReview: false,
    timeoutMs: 5000,
    cacheTtlMs: READ_TTL_MS,
    kind: 'domain',
    dataScopes: ['calendar'],
    async execute(args, ctx) {
      const rows = data
        .forTenant(ctx.identity)
        .prepare('SELECT * FROM events WHERE substr(start, 1, 10) BETWEEN ? AND ? ORDER BY start')
        .all(args.from, args.to) as EventRow[];
      const events = rows.map(toEvent).filter((e) => !args.attendee || e.attendees.includes(args.attendee));
      return { events };
    },
  };

  const reschedule: ToolSpec<{ eventId: string; start: string; end: string }> = {
    name: 'calendar_reschedule',
    description: 'Move a calendar event to a new start and end time.',
    inputSchema: z
      .strictObject({ eventId, start: isoDateTime, end: isoDateTime })
      .refine((a) => !(Date.parse(a.end) <= Date.parse(a.start)), {
        message: 'end must be after start',
        path: ['end'],
      }),
    annotations: { ...WRITE, idempotent: true },
    riskLevel: 'medium',
    permissions: { allowedRoles: ALL_ROLES, requiredDataLevel: 'L1', category: 'calendar' },
    requiresReview: false,
    timeoutMs: 5000,
    kind: 'domain',
    dataScopes: ['calendar'],
    async execute(args, ctx) {
      const db = data.forTenant(ctx.identity);
      const res = db
        .prepare("UPDATE events SET start = ?, end = ? WHERE id = ? AND status = 'scheduled'")
        .run(new Date(args.start).toISOString(), new Date(args.end).toISOString(), args.eventId);
      if (res.changes === 0) throw new Error(`no scheduled event ${args.eventId}`);
      return {
        event: toEvent(db.prepare('SELECT * FROM events WHERE id = ?').get(args.eventId) as EventRow),
      };
    },
  };

  const cancel: ToolSpec<{ eventId: string; reason?: string | undefined }> = {
    name: 'calendar_cancel',
    description: 'Cancel a calendar event the caller organises, or one only the caller attends.',
    inputSchema: z.strictObject({ eventId, reason: singleLineText(0, 200).optional() }),
    annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
    riskLevel: 'medium',
    permissions: { allowedRoles: ALL_ROLES, requiredDataLevel: 'L1', category: 'calendar' },
    requiresReview: false,
    timeoutMs: 5000,
    kind: 'domain',
    dataScopes: ['calendar'],
    async execute(args, ctx) {
      // Whose event it is lives in the data, not in the arguments, so it is checked here, in the
      // same statement that cancels: the organiser, or the only attendee. Any other caller gets
      // the same answer as for an event that does not exist.
      const me = ctx.identity.user;
      const res = data
        .forTenant(ctx.identity)
        .prepare(
          `UPDATE events SET status = 'cancelled'
           WHERE id = ? AND status = 'scheduled' AND (organizer = ? OR attendees = ?)`,
        )
        .run(args.eventId, me, JSON.stringify([me]));
      if (res.changes === 0)
        throw new Error(`no scheduled event ${args.eventId} that you organise or attend alone`);
      return { eventId: args.eventId, status: 'cancelled' };
    },
  };
  return [list, reschedule, cancel];
}
