import { z } from 'zod';
import type { ToolSpec } from '../../tools/index.js';
import { InterruptedError } from '../errors.js';
import { callerFrame } from '../frame-context.js';
import type { RunResult } from '../run-result.js';
import { type ControlToolOptions, controlTool } from './control-manifest.js';

const outputInput = z.object({
  task_id: z.string().min(1).max(64),
  block: z.boolean().default(false).describe('Wait for the task to finish.'),
  timeout_ms: z.number().int().min(0).max(600_000).default(30_000),
});
const stopInput = z.object({ task_id: z.string().min(1).max(64) });

/**
 * task_output / task_stop for background and teammate agents. Only the agent that started a job
 * may read or stop it (the coordinator); anyone else gets the same "no task" answer as for an
 * unknown id.
 */
export function backgroundTaskTools(opts: ControlToolOptions): ToolSpec[] {
  return [
    controlTool(opts, {
      name: 'task_output',
      description: 'Read the result of a background agent you started (optionally waiting for it).',
      inputSchema: outputInput,
      readOnly: true,
      timeoutMs: 610_000,
      async execute(args, ctx) {
        const frame = callerFrame(ctx, 'task_output');
        const job = frame.runtime.jobs.owned(args.task_id, frame.id, 'task_output');
        let result = job.result;
        if (!result && args.block)
          result = await waitFor(job.done, args.timeout_ms, ctx.signal, frame.runtime.tracker);
        return result
          ? { task_id: job.id, agent: job.frame.name, status: result.status, text: result.text }
          : { task_id: job.id, agent: job.frame.name, status: 'running' };
      },
    }),
    controlTool(opts, {
      name: 'task_stop',
      description: 'Stop a background agent you started.',
      inputSchema: stopInput,
      async execute(args, ctx) {
        const frame = callerFrame(ctx, 'task_stop');
        const job = frame.runtime.jobs.owned(args.task_id, frame.id, 'task_stop');
        if (!job.result) job.frame.cancel('stopped by task_stop');
        const result = await job.done;
        return { task_id: job.id, status: result.status };
      },
    }),
  ];
}

function waitFor(
  done: Promise<RunResult>,
  timeoutMs: number,
  signal: AbortSignal,
  tracker: { setTimer(label: string, ms: number, fn: () => void): () => void },
): Promise<RunResult | undefined> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clear();
      reject(new InterruptedError('task_output'));
    };
    const clear = tracker.setTimer('task_output wait', timeoutMs, () => {
      signal.removeEventListener('abort', onAbort);
      resolve(undefined);
    });
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    done.then((r) => {
      clear();
      signal.removeEventListener('abort', onAbort);
      resolve(r);
    });
  });
}
