/** Where user preferences live: the store's `user_preferences` table, or memory when there is no store. */
export interface PreferenceStore {
  load(tenant: string, user: string): Promise<Record<string, string>>;
  save(tenant: string, user: string, key: string, value: string, updatedBy: string): Promise<void>;
}

/** Preferences for the life of the process (tests, one-shot CLI, no store configured). */
export class InMemoryPreferenceStore implements PreferenceStore {
  private readonly rows = new Map<string, Record<string, string>>();

  async load(tenant: string, user: string): Promise<Record<string, string>> {
    return { ...(this.rows.get(`${tenant}\u0000${user}`) ?? {}) };
  }

  async save(tenant: string, user: string, key: string, value: string): Promise<void> {
    const k = `${tenant}\u0000${user}`;
    this.rows.set(k, { ...(this.rows.get(k) ?? {}), [key]: value });
  }
}
