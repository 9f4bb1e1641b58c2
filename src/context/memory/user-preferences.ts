import { PreferenceRejectedError } from '../errors.js';
import type { ContextLine } from '../event.js';
import { PREFERENCE_VALUES, type PreferenceKey, type UserPreferenceMap } from './preference-schema.js';
import type { PreferenceStore } from './preference-store.js';

/**
 * User preferences: shared read across lines, checked write. A write names the line making it
 * and must be a whitelisted key with one of its enumerated values; anything else is refused with
 * {@link PreferenceRejectedError} so a line cannot smuggle data to another through preferences.
 * Values read back are re-checked, so a row written around this class is ignored, not trusted.
 */
export class UserPreferences {
  constructor(private readonly store: PreferenceStore) {}

  async get(tenant: string, user: string): Promise<UserPreferenceMap> {
    const raw = await this.store.load(tenant, user);
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(raw)) if (isAllowed(k, v)) out[k] = v;
    return out as UserPreferenceMap;
  }

  async set(
    tenant: string,
    user: string,
    key: string,
    value: unknown,
    by: { line: ContextLine },
  ): Promise<void> {
    checkPreferenceWrite(key, value);
    await this.store.save(tenant, user, key, value as string, by.line);
  }
}

function isAllowed(key: string, value: unknown): boolean {
  if (!Object.hasOwn(PREFERENCE_VALUES, key)) return false;
  return (
    typeof value === 'string' &&
    (PREFERENCE_VALUES[key as PreferenceKey] as readonly string[]).includes(value)
  );
}

/** Throws unless `key` is whitelisted and `value` one of its enumerated values. Pure. */
export function checkPreferenceWrite(key: string, value: unknown): asserts value is string {
  if (!Object.hasOwn(PREFERENCE_VALUES, key)) {
    throw new PreferenceRejectedError(
      'context.preference_key',
      `"${key.slice(0, 40)}" is not a preference a line may set`,
      {
        where: `user preference ${key.slice(0, 40)}`,
        details: { key: key.slice(0, 40), allowed: Object.keys(PREFERENCE_VALUES) },
      },
    );
  }
  const allowed = PREFERENCE_VALUES[key as PreferenceKey] as readonly string[];
  if (typeof value !== 'string' || !allowed.includes(value)) {
    throw new PreferenceRejectedError(
      'context.preference_value',
      `value not allowed; expected one of ${allowed.join(' | ')}`,
      {
        where: `user preference ${key}`,
        details: { key, allowed },
      },
    );
  }
}
