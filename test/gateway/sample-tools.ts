import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { Identity } from '../../src/core/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import type { ToolExecutionContext, ToolSpec } from '../../src/tools/index.js';

export const READ = { readOnly: true, destructive: false, idempotent: true, openWorld: false } as const;

export const alice: Identity = {
  tenant: 'acme',
  user: 'alice',
  roles: ['employee'],
  dataLevel: 'L1',
  attributes: { department: 'sales' },
};
export const carol: Identity = {
  tenant: 'acme',
  user: 'carol',
  roles: ['finance_analyst'],
  dataLevel: 'L3',
  attributes: {},
};

/** Records what real tools actually ran, so tests can assert that nothing executed. */
export class ExecutionLog {
  readonly calls: { tool: string; args: unknown; ctx: ToolExecutionContext }[] = [];
  count(tool: string): number {
    return this.calls.filter((c) => c.tool === tool).length;
  }
}

/** A small set of real tools exercising every execution outcome. */
export function sampleTools(log: ExecutionLog): ToolSpec[] {
  const base = {
    annotations: READ,
    riskLevel: 'low' as const,
    requiresReview: false,
    timeoutMs: 2000,
  };
  return [
    {
      ...base,
      name: 'echo',
      description: 'returns its input',
      inputSchema: z.strictObject({
        text: z.string().min(1),
        times: z.number().int().min(1).max(3).default(1),
      }),
      permissions: {
        allowedRoles: ['employee', 'finance_analyst'],
        requiredDataLevel: 'L1',
        category: 'docs',
      },
      async execute(args: { text: string; times: number }, ctx: ToolExecutionContext) {
        log.calls.push({ tool: 'echo', args, ctx });
        return { text: args.text.repeat(args.times), user: ctx.identity.user };
      },
    },
    {
      ...base,
      name: 'ledger_read',
      description: 'needs L3',
      inputSchema: z.strictObject({}),
      permissions: {
        allowedRoles: ['employee', 'finance_analyst'],
        requiredDataLevel: 'L3',
        category: 'finance',
      },
      async execute(args: unknown, ctx: ToolExecutionContext) {
        log.calls.push({ tool: 'ledger_read', args, ctx });
        return { balance: 1 };
      },
    },
    {
      ...base,
      name: 'payroll_export',
      description: 'high risk, needs review',
      riskLevel: 'high',
      requiresReview: true,
      inputSchema: z.strictObject({ month: z.string().regex(/^\d{4}-\d{2}$/) }),
      permissions: { allowedRoles: ['finance_analyst'], requiredDataLevel: 'L3', category: 'finance' },
      async execute(args: { month: string }, ctx: ToolExecutionContext) {
        log.calls.push({ tool: 'payroll_export', args, ctx });
        return { month: args.month, rows: [1, 2, 3] };
      },
    },
    {
      ...base,
      name: 'explode',
      description: 'always throws',
      inputSchema: z.strictObject({}),
      permissions: { allowedRoles: ['employee'], requiredDataLevel: 'L1', category: 'docs' },
      async execute(args: unknown, ctx: ToolExecutionContext) {
        log.calls.push({ tool: 'explode', args, ctx });
        throw Object.assign(new Error('disk on fire'), { code: 'disk.fire' });
      },
    },
    {
      ...base,
      name: 'stall',
      description: 'never finishes and ignores its signal',
      timeoutMs: 40,
      inputSchema: z.strictObject({}),
      permissions: { allowedRoles: ['employee'], requiredDataLevel: 'L1', category: 'docs' },
      execute(args: unknown, ctx: ToolExecutionContext) {
        log.calls.push({ tool: 'stall', args, ctx });
        return new Promise<never>(() => {});
      },
    },
    {
      ...base,
      name: 'globex_only',
      description: 'serves only globex',
      tenants: ['globex'],
      inputSchema: z.strictObject({}),
      permissions: { allowedRoles: ['employee'], requiredDataLevel: 'L1', category: 'docs' },
      async execute(args: unknown, ctx: ToolExecutionContext) {
        log.calls.push({ tool: 'globex_only', args, ctx });
        return {};
      },
    },
  ] as ToolSpec[];
}

/** A real SQLite store in a fresh temporary folder. */
export async function openTempStore(): Promise<{ store: Store; cleanup: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'twinline-gateway-'));
  const store = await openStore({ sqliteFile: join(dir, 'store.sqlite'), env: {} });
  return {
    store,
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
