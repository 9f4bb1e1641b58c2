import type { QuickJSWASMModule } from 'quickjs-emscripten';
import { z } from 'zod';
import { importExternal } from '../../core/index.js';
import type { ToolSpec } from '../../tools/index.js';
import type { AgentFrame } from '../agent-frame.js';
import { ControlToolError } from '../errors.js';
import { callerFrame } from '../frame-context.js';
import { invokeThroughGateway } from '../tool-invocation.js';
import { type ControlToolOptions, controlTool } from './control-manifest.js';

const input = z.object({
  code: z
    .string()
    .min(1)
    .max(20_000)
    .describe(
      'Body of an async JavaScript function. Call tools with `await callTool(name, args)`; `return` the result.',
    ),
  timeout_ms: z.number().int().min(100).max(60_000).default(10_000),
});

/** Limits of one `exec` sandbox. */
export interface ExecLimits {
  readonly memoryBytes: number;
  readonly stackBytes: number;
  readonly maxToolCalls: number;
  readonly maxResultChars: number;
  readonly maxLogLines: number;
}

export const DEFAULT_EXEC_LIMITS: ExecLimits = {
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 1024 * 1024,
  maxToolCalls: 50,
  maxResultChars: 100_000,
  maxLogLines: 100,
};

/**
 * Code mode: runs model-written JavaScript in a QuickJS (WebAssembly) sandbox with no I/O at all.
 * Its only way out is `callTool(name, args)`, which sends the call through the gateway again
 * under its own name with route `exec` — so access (including the tools `exec` may not call),
 * policy, approval and audit apply to each call exactly as to a direct one. CPU time is bounded
 * by an interrupt deadline, memory and stack by runtime limits, wall time by a timer; an abort
 * (interrupt, parent cancelled) tears the sandbox down. QuickJS is loaded on first use.
 */
export function execTool(
  opts: ControlToolOptions,
  limits: ExecLimits = DEFAULT_EXEC_LIMITS,
): ToolSpec<z.infer<typeof input>> {
  return controlTool(opts, {
    name: 'exec',
    description:
      'Run JavaScript in a sandbox that can only call your tools: `const r = await callTool("sales_query", {...}); return r;`.',
    inputSchema: input,
    timeoutMs: 65_000,
    async execute(args, ctx) {
      const frame = callerFrame(ctx, 'exec');
      return runInSandbox(frame, args.code, args.timeout_ms, ctx.signal, limits);
    },
  });
}

/** A WebAssembly module whose last run ended cleanly (all its objects freed), ready for reuse. */
let spareModule: QuickJSWASMModule | undefined;

async function runInSandbox(
  frame: AgentFrame,
  code: string,
  timeoutMs: number,
  signal: AbortSignal,
  limits: ExecLimits,
): Promise<{ result: unknown; logs: string[]; toolCalls: number }> {
  const { newQuickJSWASMModule, shouldInterruptAfterDeadline } =
    await importExternal<typeof import('quickjs-emscripten')>('quickjs-emscripten');
  // A module no other run is using: the spare one a clean run handed back, else a fresh one. A
  // script stopped mid-flight takes its module with it, so it cannot leave state behind.
  const QuickJS = spareModule ?? (await newQuickJSWASMModule());
  spareModule = undefined;
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + timeoutMs));
  const vm = runtime.newContext();
  const logs: string[] = [];
  let calls = 0;
  let disposed = false;
  let clean = false;
  const deferreds: { alive: boolean; dispose(): void }[] = [];
  const inner = new AbortController();
  const stop = () => inner.abort();
  signal.addEventListener('abort', stop, { once: true });
  const cancelTimer = frame.runtime.tracker.setTimer('exec wall time', timeoutMs, stop);
  try {
    const callTool = vm.newFunction('callTool', (nameH, argsH) => {
      const name = vm.getString(nameH);
      const callArgs = argsH === undefined ? {} : vm.dump(argsH);
      const deferred = vm.newPromise();
      deferreds.push(deferred);
      const settle = (fn: () => void) => {
        if (disposed) return;
        fn();
        runtime.executePendingJobs();
      };
      if (++calls > limits.maxToolCalls) {
        settle(() => {
          const e = vm.newError(`exec may call tools at most ${limits.maxToolCalls} times`);
          deferred.reject(e);
          e.dispose();
        });
        return deferred.handle;
      }
      invokeThroughGateway(frame, { name, arguments: callArgs }, inner.signal, 'exec').then((r) =>
        settle(() => {
          if (r.status === 'executed') {
            const parsed = vm.evalCode(`JSON.parse(${JSON.stringify(JSON.stringify(r.output ?? null))})`);
            if (parsed.error) {
              deferred.reject(parsed.error);
              parsed.error.dispose();
            } else {
              deferred.resolve(parsed.value);
              parsed.value.dispose();
            }
          } else {
            const e = vm.newError(r.modelContent);
            deferred.reject(e);
            e.dispose();
          }
        }),
      );
      return deferred.handle;
    });
    vm.setProp(vm.global, 'callTool', callTool);
    callTool.dispose();
    const log = vm.newFunction('log', (...parts) => {
      if (logs.length < limits.maxLogLines)
        logs.push(
          parts
            .map((p) => String(vm.dump(p)))
            .join(' ')
            .slice(0, 1000),
        );
    });
    const consoleObj = vm.newObject();
    vm.setProp(consoleObj, 'log', log);
    vm.setProp(vm.global, 'console', consoleObj);
    log.dispose();
    consoleObj.dispose();

    const evaluated = vm.evalCode(`(async () => {\n${code}\n})()`, 'exec.js');
    if (evaluated.error) throw sandboxError(vm.dump(evaluated.error), evaluated.error);
    const promise = evaluated.value;
    const outcome = vm.resolvePromise(promise);
    // Run what is already queued (an async body that never awaits a tool settles here).
    const jobs = runtime.executePendingJobs();
    if (jobs.error) throw sandboxError(vm.dump(jobs.error), jobs.error);
    const aborted = new Promise<never>((_, reject) => {
      const fail = () =>
        reject(
          new ControlToolError('agent.exec_stopped', 'the script was stopped (timeout or interrupt)', {
            where: 'exec',
          }),
        );
      if (inner.signal.aborted) fail();
      else inner.signal.addEventListener('abort', fail, { once: true });
    });
    aborted.catch(() => {});
    const settled = await Promise.race([outcome, aborted]);
    promise.dispose();
    if (settled.error) {
      const err = vm.dump(settled.error);
      settled.error.dispose();
      throw sandboxError(err);
    }
    const value = vm.dump(settled.value);
    settled.value.dispose();
    const text = JSON.stringify(value ?? null);
    if (text.length > limits.maxResultChars) {
      throw new ControlToolError(
        'agent.exec_result_too_large',
        `the result has ${text.length} characters (limit ${limits.maxResultChars})`,
        {
          where: 'exec',
        },
      );
    }
    clean = true;
    return { result: value ?? null, logs, toolCalls: calls };
  } finally {
    cancelTimer();
    signal.removeEventListener('abort', stop);
    inner.abort();
    disposed = true;
    // After a normal end every handle is released and the runtime can be freed. A script stopped
    // mid-flight still holds objects QuickJS refuses to free; its private module is dropped instead.
    if (clean) {
      for (const d of deferreds) if (d.alive) d.dispose();
      vm.dispose();
      runtime.dispose();
      spareModule = QuickJS;
    }
  }
}

function sandboxError(dumped: unknown, handle?: { dispose(): void }): ControlToolError {
  handle?.dispose();
  const d = dumped as { name?: string; message?: string } | string | undefined;
  const message = typeof d === 'string' ? d : `${d?.name ?? 'Error'}: ${d?.message ?? 'unknown error'}`;
  return new ControlToolError('agent.exec_error', message.slice(0, 500), { where: 'exec' });
}
