import { resolve } from 'node:path';
import type { Identity } from '../../../src/core/index.js';
import { ensureTenantData } from '../data/generate.js';
import { type Database, openDatabase } from '../data/sqlite.js';
import { isOfficeTenant } from '../data/tenants.js';

/**
 * Opens a tenant's own data file, chosen only from the caller's identity — never from arguments —
 * so one tenant's tools cannot reach another tenant's rows. One connection per tenant per process.
 */
export class OfficeData {
  readonly dataDir: string;
  readonly #open = new Map<string, Database>();

  constructor(dataDir: string) {
    this.dataDir = resolve(dataDir);
  }

  /** The connection to `identity.tenant`'s file, generating the file on first use. */
  forTenant(identity: Identity): Database {
    const tenant = identity.tenant;
    if (!isOfficeTenant(tenant)) throw new Error(`tenant ${tenant} has no office data`);
    let db = this.#open.get(tenant);
    if (!db) {
      db = openDatabase(ensureTenantData(this.dataDir, tenant));
      db.pragma('journal_mode = WAL');
      db.pragma('busy_timeout = 5000');
      this.#open.set(tenant, db);
    }
    return db;
  }

  /** Closes every open tenant connection. */
  close(): void {
    for (const db of this.#open.values()) db.close();
    this.#open.clear();
  }
}
