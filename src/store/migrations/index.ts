import { migration as m001 } from './001_foundation.js';
import { migration as m002 } from './002_user_preferences.js';
import { migration as m003 } from './003_config_canary.js';
import { migration as m004 } from './004_audit_sandbox.js';
import { migration as m005 } from './005_deep_admission.js';
import { migration as m006 } from './006_audit_decision_log.js';
import { migration as m007 } from './007_review_kind.js';
import type { StoreMigration } from './migration.js';

export type { StoreDialect, StoreMigration } from './migration.js';

/**
 * Every migration, in order. A new migration is a new `NNN_name.ts` file in this folder plus one
 * line here (a test checks that no file in the folder is left out).
 */
export const MIGRATIONS: readonly StoreMigration[] = [m001, m002, m003, m004, m005, m006, m007];
