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
  const controller = new AbortController();
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
      controller.abort(callerSignal?.reason);
      settle({
        status: 'cancelled',
        error: { code: 'cancelled', message: `Call to ${tool.name} was cancelled.` },
      });
    };
    const timer = setTimeout(() => {
      controller.abort(new Error(`timeout after ${tool.timeoutMs} ms`));
      settle({
        status: 'timeout',
        error: { code: 'timeout', message: `${tool.name} timed out after ${tool.timeoutMs} ms.` },
      });
    }, tool.timeoutMs);
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    Promise.resolve()
      .then(() => tool.execute(args, { ...base, signal: controller.signal }))
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
