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

// Quick-line tools take strict schemas only (docs/lines.md, "Two trust chains"): free text is still bounded to a
// character class, so a model cannot pass control characters or an unbounded payload.
/** One line of printable text (no control characters). */
export const singleLineText = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[^\p{Cc}]*$/u, 'one line of printable text');
/** Printable text; newlines and tabs allowed, other control characters not. */
export const multiLineText = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, 'printable text');
