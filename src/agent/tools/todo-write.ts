import { z } from 'zod';
import type { ToolSpec } from '../../tools/index.js';
import { callerFrame } from '../frame-context.js';
import { type ControlToolOptions, controlTool } from './control-manifest.js';

const input = z.object({
  todos: z
    .array(
      z.object({
        content: z.string().min(1).max(500),
        status: z.enum(['pending', 'in_progress', 'completed']),
      }),
    )
    .max(100),
});

/** Replaces the calling agent's own to-do list (private to the agent, unlike the team's tasks). */
export function todoWriteTool(opts: ControlToolOptions): ToolSpec<z.infer<typeof input>> {
  return controlTool(opts, {
    name: 'todo_write',
    description: 'Write your to-do list (replaces the previous one).',
    inputSchema: input,
    async execute(args, ctx) {
      const frame = callerFrame(ctx, 'todo_write');
      frame.todos = args.todos;
      const count = (s: string) => args.todos.filter((t) => t.status === s).length;
      return {
        total: args.todos.length,
        pending: count('pending'),
        in_progress: count('in_progress'),
        completed: count('completed'),
      };
    },
  });
}
