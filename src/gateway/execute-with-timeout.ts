import type { ToolExecutionContext, ToolSpec } from '../tools/index.js';

/** How one execution ended. */
export type ExecutionOutcome =
  | { readonly status: 'executed'; readonly output: unknown }
  | {
      readonly status: 'failed' | 'timeout' | 'cancelled';
      readonly error: { readonly code: string; readonly message: string };
    };

/**
 * Runs `tool.execute` with one AbortSignal combining the caller's signal and the tool's timeout.
 * The gateway returns when the timeout fires or the caller aborts even if the tool ignores its
 * signal: the tool's late result is dropped.
 */
export function executeWithTimeout(
  tool: ToolSpec,
  args: unknown,
  base: Omit<ToolExecutionContext, 'signal'>,
  callerSignal: AbortSignal | undefined,
): Promise<ExecutionOutcome> {
  if (callerSignal?.aborted) {
    return Promise.resolve({
      status: 'cancelled',
      error: { code: 'cancelled', message: `Call to ${tool.name} was cancelled before it ran.` },
    });
  }
  // The tool's signal is made only when the tool reads it: a read answered from the cache never
  // does, and an AbortSignal is one of the costlier objects of a call. One that is read after the
  // call was aborted starts aborted, with the same reason.
  let controller: AbortController | undefined;
  let aborted: { reason: unknown } | undefined;
  const abort = (reason: unknown) => {
    if (controller) controller.abort(reason);
    else aborted ??= { reason };
  };
  const ctx: ToolExecutionContext = {
    ...base,
    get signal() {
      if (!controller) {
        controller = new AbortController();
        if (aborted) controller.abort(aborted.reason);
      }
      return controller.signal;
    },
  };
  return new Promise<ExecutionOutcome>((resolve) => {
    let settled = false;
    const settle = (outcome: ExecutionOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
      resolve(outcome);
    };
    const onCallerAbort = () => {
      abort(callerSignal?.reason);
      settle({
        status: 'cancelled',
        error: { code: 'cancelled', message: `Call to ${tool.name} was cancelled.` },
      });
    };
    const timer = setTimeout(() => {
      abort(new Error(`timeout after ${tool.timeoutMs} ms`));
      settle({
        status: 'timeout',
        error: { code: 'timeout', message: `${tool.name} timed out after ${tool.timeoutMs} ms.` },
      });
    }, tool.timeoutMs);
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    Promise.resolve()
      .then(() => tool.execute(args, ctx))
      .then(
        (output) => settle({ status: 'executed', output }),
        (err: unknown) =>
          settle({
            status: 'failed',
            error: {
              code: errorCode(err),
              message: err instanceof Error ? err.message : String(err),
            },
          }),
      );
  });
}

function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'tool.failed';
}
