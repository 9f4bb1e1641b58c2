import { z } from 'zod';
import type { ToolSpec } from '../../tools/index.js';
import { NoInteractiveUserError } from '../errors.js';
import { callerFrame } from '../frame-context.js';
import { type ControlToolOptions, controlTool } from './control-manifest.js';

const input = z.object({
  question: z.string().min(1).max(2000),
  options: z.array(z.string().max(200)).max(10).optional(),
});

/**
 * Asks the user a question. The access layer hides it from spawned agents; at execution it checks
 * its caller a second time, so a background agent gets a typed error even if a bug let it through.
 */
export function askUserTool(opts: ControlToolOptions): ToolSpec<z.infer<typeof input>> {
  return controlTool(opts, {
    name: 'ask_user',
    description: 'Ask the user a question and wait for the answer.',
    inputSchema: input,
    timeoutMs: 10 * 60_000,
    async execute(args, ctx) {
      const frame = callerFrame(ctx, 'ask_user');
      // Check both the gateway's view of the caller and the runtime's own frame.
      frame.runtime.access.assertInteractiveCaller(ctx.agent, 'ask_user');
      frame.runtime.access.assertInteractiveCaller(frame.ref(), 'ask_user');
      const handler = frame.runtime.userQuestion;
      if (!handler) throw new NoInteractiveUserError();
      const answer = await handler(
        { question: args.question, ...(args.options ? { options: args.options } : {}), agent: frame.name },
        ctx.signal,
      );
      return { answer };
    },
  });
}
