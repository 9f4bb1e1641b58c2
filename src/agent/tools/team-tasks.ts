import { z } from 'zod';
import type { ToolSpec } from '../../tools/index.js';
import { callerFrame } from '../frame-context.js';
import { TASK_STATUSES } from '../task-board.js';
import { type ControlToolOptions, controlTool } from './control-manifest.js';

const createInput = z.object({
  subject: z.string().min(1).max(200),
  description: z.string().max(5000).optional(),
  owner: z.string().max(100).optional(),
});
const getInput = z.object({ task_id: z.string().min(1).max(64) });
const listInput = z.object({ status: z.enum(TASK_STATUSES).optional() });
const updateInput = z.object({
  task_id: z.string().min(1).max(64),
  status: z.enum(TASK_STATUSES).optional(),
  owner: z.string().max(100).optional(),
  result: z.string().max(10_000).optional(),
  description: z.string().max(5000).optional(),
});

/** task_create / task_get / task_list / task_update on the session's shared task board. */
export function teamTaskTools(opts: ControlToolOptions): ToolSpec[] {
  return [
    controlTool(opts, {
      name: 'task_create',
      description: "Add a task to the team's shared task list.",
      inputSchema: createInput,
      async execute(args, ctx) {
        const frame = callerFrame(ctx, 'task_create');
        return frame.runtime.board.create(
          {
            subject: args.subject,
            ...(args.description === undefined ? {} : { description: args.description }),
            ...(args.owner === undefined ? {} : { owner: args.owner }),
          },
          frame.id,
        );
      },
    }),
    controlTool(opts, {
      name: 'task_get',
      description: 'Read one task of the shared task list.',
      inputSchema: getInput,
      readOnly: true,
      concurrencySafe: true,
      async execute(args, ctx) {
        return callerFrame(ctx, 'task_get').runtime.board.get(args.task_id);
      },
    }),
    controlTool(opts, {
      name: 'task_list',
      description: 'List the tasks of the shared task list, optionally by status.',
      inputSchema: listInput,
      readOnly: true,
      concurrencySafe: true,
      async execute(args, ctx) {
        return { tasks: callerFrame(ctx, 'task_list').runtime.board.list(args.status) };
      },
    }),
    controlTool(opts, {
      name: 'task_update',
      description: 'Update the status, owner, result or description of a shared task.',
      inputSchema: updateInput,
      async execute(args, ctx) {
        const frame = callerFrame(ctx, 'task_update');
        const { task_id, ...patch } = args;
        return frame.runtime.board.update(task_id, patch, frame.id);
      },
    }),
  ];
}
