import { z } from 'zod';
import { ContextEventRejectedError } from './errors.js';
import { findPersonalData, looksLikeSerializedRecord } from './pii-check.js';

/** Longest summary a line may publish: one or two sentences, never a payload. */
export const MAX_SUMMARY_CHARS = 280;
/** Most ids one event may reference. */
export const MAX_REFS = 16;

// Tenant and user become NATS subject tokens: no dots, wildcards or spaces.
const subjectToken = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ or -, at most 64');

/** The lines that publish context events. */
export const CONTEXT_LINES = ['deep', 'quick', 'readonly'] as const;
export type ContextLine = (typeof CONTEXT_LINES)[number];

/**
 * A context event: what one line tells the others about a user's work. Strict: any field beyond
 * these is refused, values are flat strings, `refs` are opaque ids, never objects.
 */
export const ContextEventSchema = z
  .object({
    tenant: subjectToken,
    user: subjectToken,
    fromLine: z.enum(CONTEXT_LINES),
    kind: z.string().regex(/^[a-z][a-z0-9_.-]{0,63}$/, 'lower-case kind like "calendar.rescheduled"'),
    summary: z.string().min(1).max(MAX_SUMMARY_CHARS),
    refs: z
      .array(z.string().regex(/^[A-Za-z0-9_:#./-]{1,64}$/, 'an id: letters, digits and _:#./- only'))
      .max(MAX_REFS),
    time: z.iso.datetime({ offset: true }),
  })
  .strict();

export type ContextEvent = z.infer<typeof ContextEventSchema>;

/**
 * Validates an event a line wants to publish and returns a frozen copy. Throws
 * {@link ContextEventRejectedError} naming the field when the event carries anything other than a
 * short summary and ids: extra or nested fields, long text, serialised records, personal data.
 */
export function validateContextEvent(input: unknown): Readonly<ContextEvent> {
  const parsed = ContextEventSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || '(event)';
    throw new ContextEventRejectedError('context.event_invalid', `${issue.message}`, {
      where: `context event field ${field}`,
      details: { field, reason: issue.code },
    });
  }
  const ev = parsed.data;
  const checks: Array<readonly [string, string, boolean]> = [
    ['summary', ev.summary, false],
    ['kind', ev.kind, true],
    ...ev.refs.map((r, i) => [`refs.${i}`, r, true] as const),
  ];
  for (const [field, text, asId] of checks) {
    const found = findPersonalData(text, { asId });
    if (found.length) {
      throw new ContextEventRejectedError(
        'context.personal_data',
        `personal data (${found.join(', ')}) may not cross lines`,
        {
          where: `context event field ${field}`,
          details: { field, reason: 'personal_data', patterns: found },
        },
      );
    }
  }
  if (looksLikeSerializedRecord(ev.summary)) {
    throw new ContextEventRejectedError(
      'context.raw_record',
      'summary looks like a serialised record, not a sentence',
      {
        where: 'context event field summary',
        details: { field: 'summary', reason: 'raw_record' },
      },
    );
  }
  return Object.freeze({ ...ev, refs: Object.freeze([...ev.refs]) as string[] });
}

/**
 * Builds and validates an event stamped with the current time — the usual way a line reports
 * what it did: `makeContextEvent({ tenant, user, fromLine: 'quick', kind: 'calendar.rescheduled',
 * summary: 'user moved the project kick-off to 4 pm', refs: ['event:42'] })`.
 */
export function makeContextEvent(
  fields: Omit<ContextEvent, 'time' | 'refs'> & { refs?: string[] },
  now: Date = new Date(),
): Readonly<ContextEvent> {
  return validateContextEvent({ ...fields, refs: fields.refs ?? [], time: now.toISOString() });
}
