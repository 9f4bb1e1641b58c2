import { TwinlineError } from '../core/index.js';

/** A store operation that could not be carried out (bad configuration, unknown row, lost connection). */
export class StoreError extends TwinlineError {}

/**
 * A repository was asked to touch a row outside its tenant scope, or a tenant-less write was
 * attempted through the cross-tenant admin view. Always a programming error, never a data one.
 */
export class TenantScopeError extends TwinlineError {
  constructor(message: string, where: string, details?: Record<string, unknown>) {
    super('store.tenant-scope', message, { where, ...(details ? { details } : {}) });
  }
}
