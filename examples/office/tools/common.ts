import { z } from 'zod';

/** Every office role, for tools any employee may use. */
export const ALL_ROLES = [
  'employee',
  'sales_manager',
  'finance_analyst',
  'project_admin',
  'hr_analyst',
  'project_owner',
] as const;

export const READ_TTL_MS = 300_000;

export const READ_ONLY = { readOnly: true, destructive: false, idempotent: true, openWorld: false } as const;
export const WRITE = { readOnly: false, destructive: false, idempotent: false, openWorld: false } as const;
export const DESTRUCTIVE = {
  readOnly: false,
  destructive: true,
  idempotent: true,
  openWorld: false,
} as const;

/** Calendar date, `YYYY-MM-DD`. */
export const isoDate = z.iso.date();
/** Date-time with offset or `Z`, e.g. `2026-12-01T09:00:00Z`. */
export const isoDateTime = z.iso.datetime({ offset: true });
export const userName = z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, 'a user name such as alice');
export const region = z.enum(['east', 'west', 'north', 'south']);
export const projectName = z.string().regex(/^[a-z][a-z0-9-]{1,31}$/, 'a project name such as phoenix');
