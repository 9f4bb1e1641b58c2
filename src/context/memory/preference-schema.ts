import { z } from 'zod';

/**
 * The only preferences a line may write, each a closed set of values. Preferences are read by
 * every line, so a free-text value would be a channel for one line to pass data to another
 * (docs/lines.md, "Context bus: summaries only"): every value here is an enumeration, so at most a few bits cross.
 */
export const PREFERENCE_VALUES = {
  outputFormat: ['table', 'text', 'list'],
  riskAlerts: ['on', 'off'],
  language: ['zh', 'en'],
  verbosity: ['brief', 'normal', 'detailed'],
  timezone: [
    'Asia/Shanghai',
    'Asia/Hong_Kong',
    'Asia/Singapore',
    'Asia/Tokyo',
    'Europe/London',
    'Europe/Berlin',
    'America/New_York',
    'America/Los_Angeles',
    'UTC',
  ],
  notifyChannel: ['im', 'email', 'none'],
} as const;

export type PreferenceKey = keyof typeof PREFERENCE_VALUES;
export type UserPreferenceMap = { [K in PreferenceKey]?: (typeof PREFERENCE_VALUES)[K][number] };

export const PREFERENCE_KEYS = Object.keys(PREFERENCE_VALUES) as PreferenceKey[];

/** Strict schema of a full preference map (unknown keys refused). */
export const UserPreferencesSchema = z
  .object({
    outputFormat: z.enum(PREFERENCE_VALUES.outputFormat).optional(),
    riskAlerts: z.enum(PREFERENCE_VALUES.riskAlerts).optional(),
    language: z.enum(PREFERENCE_VALUES.language).optional(),
    verbosity: z.enum(PREFERENCE_VALUES.verbosity).optional(),
    timezone: z.enum(PREFERENCE_VALUES.timezone).optional(),
    notifyChannel: z.enum(PREFERENCE_VALUES.notifyChannel).optional(),
  })
  .strict();
