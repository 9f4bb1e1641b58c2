import { z } from 'zod';
import type { Identity } from '../../src/core/index.js';
import type { CallContext, PreparedCall } from '../../src/gateway/index.js';
import type { ToolSpec } from '../../src/tools/index.js';

/** A real manifest (no execute side effects needed: stages only read the spec). */
export function toolWith(extra: Partial<ToolSpec>): ToolSpec {
  return {
    name: 'crm_lookup',
    description: 'Looks up customers.',
    inputSchema: z.object({ q: z.string() }),
    annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
    riskLevel: 'low',
    permissions: { allowedRoles: ['sales'], requiredDataLevel: 'L1', category: 'crm' },
    requiresReview: false,
    timeoutMs: 1000,
    execute: async () => ({}),
    ...extra,
  };
}

export function prepared(tool: ToolSpec, args: unknown = { q: 'x' }): PreparedCall {
  return { call: { id: 'c1', name: tool.name, arguments: args }, tool, args };
}

export function contextAt(dataLevel: Identity['dataLevel']): CallContext {
  return {
    identity: { tenant: 't1', user: 'u1', roles: ['sales'], dataLevel, attributes: {} },
    sessionId: 's1',
  };
}
