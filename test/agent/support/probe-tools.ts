import { z } from 'zod';
import type { ToolSpec } from '../../../src/tools/index.js';

/** A deferred whose promise can be awaited by a test. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export interface SlowProbe {
  readonly tool: ToolSpec;
  /** Resolves with the call id when an execution starts. */
  started(): Promise<void>;
  readonly aborted: string[];
  readonly running: () => number;
  readonly maxConcurrent: () => number;
}

/**
 * A real tool that runs until its signal aborts (or `releaseAfterMs`), registered beside the
 * office tools so tests can interrupt a call in flight through the real gateway.
 */
export function slowProbe(
  name = 'slow_probe',
  opts: { concurrencySafe?: boolean; releaseAfterMs?: number; roles?: string[] } = {},
): SlowProbe {
  const aborted: string[] = [];
  let running = 0;
  let max = 0;
  let waiters: (() => void)[] = [];
  const tool: ToolSpec<{ label?: string | undefined }> = {
    name,
    description: 'Waits for a while and reports back (test probe).',
    inputSchema: z.strictObject({ label: z.string().optional() }),
    annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
    riskLevel: 'low',
    permissions: {
      allowedRoles: opts.roles ?? ['employee', 'sales_manager', 'finance_analyst'],
      requiredDataLevel: 'L1',
      category: 'probe',
    },
    requiresReview: false,
    timeoutMs: 60_000,
    kind: 'read',
    ...(opts.concurrencySafe ? { concurrencySafe: true } : {}),
    execute(args, ctx) {
      running++;
      max = Math.max(max, running);
      for (const w of waiters) w();
      waiters = [];
      return new Promise((resolve, reject) => {
        const done = () => {
          running--;
          ctx.signal.removeEventListener('abort', onAbort);
        };
        const onAbort = () => {
          clearTimeout(timer);
          aborted.push(args.label ?? ctx.callId);
          done();
          reject(new Error('aborted'));
        };
        const timer =
          opts.releaseAfterMs === undefined
            ? undefined
            : setTimeout(() => {
                done();
                resolve({ label: args.label ?? null, ok: true });
              }, opts.releaseAfterMs);
        ctx.signal.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
  return {
    tool,
    started: () => (running > 0 ? Promise.resolve() : new Promise<void>((r) => waiters.push(r))),
    aborted,
    running: () => running,
    maxConcurrent: () => max,
  };
}
