import type { StoreDb } from '../../store/index.js';
import { type DocumentReader, type DocumentView, documentPartition } from './documents.js';
import { InMemoryPreferenceStore } from './preference-store.js';
import { SqlPreferenceStore } from './sql-preference-store.js';
import { UserPreferences } from './user-preferences.js';
import { WorkingMemory } from './working-memory.js';

export type { DocumentReader, DocumentView } from './documents.js';
export { documentPartition } from './documents.js';
export {
  PREFERENCE_KEYS,
  PREFERENCE_VALUES,
  type PreferenceKey,
  type UserPreferenceMap,
  UserPreferencesSchema,
} from './preference-schema.js';
export { InMemoryPreferenceStore, type PreferenceStore } from './preference-store.js';
export { SqlPreferenceStore } from './sql-preference-store.js';
export { checkPreferenceWrite, UserPreferences } from './user-preferences.js';
export { type TaskMemory, WorkingMemory } from './working-memory.js';

/** The three memory partitions (docs/lines.md, "Context bus: summaries only"). */
export interface MemoryPartitions {
  working: WorkingMemory;
  preferences: UserPreferences;
  documents: DocumentReader | undefined;
}

/**
 * Builds the memory partitions. Preferences persist in the store when `db` is given (table
 * `user_preferences`), else in memory. Documents need a tool-backed reader from the line.
 */
export function createMemory(
  options: { db?: StoreDb; readDocument?: (ref: string) => Promise<DocumentView> } = {},
): MemoryPartitions {
  return {
    working: new WorkingMemory(),
    preferences: new UserPreferences(
      options.db ? new SqlPreferenceStore(options.db) : new InMemoryPreferenceStore(),
    ),
    documents: options.readDocument ? documentPartition(options.readDocument) : undefined,
  };
}
