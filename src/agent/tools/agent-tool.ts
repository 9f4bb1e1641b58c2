import { z } from 'zod';
import { agentTypeSubject, type ToolSpec } from '../../tools/index.js';
import { callerFrame } from '../frame-context.js';
import { spawnSubagent } from '../spawn.js';
import { type ControlToolOptions, controlTool } from './control-manifest.js';

const input = z.strictObject({
  agent: z.string().min(1).max(64).describe('Name of the agent definition to run.'),
  prompt: z.string().min(1).max(20_000).describe('The task for the sub-agent.'),
  mode: z
    .enum(['foreground', 'background', 'teammate'])
    .default('foreground')
    .describe(
      'foreground: wait for the result; background: continue and read it with task_output; teammate: shares the task list and messages.',
    ),
});

/** Spawns a sub-agent by definition name (see `spawnSubagent` for what it may do). */
export function agentTool(opts: ControlToolOptions): ToolSpec<z.infer<typeof input>> {
  return controlTool(opts, {
    name: 'agent',
    description: 'Run a sub-agent from a definition, in the foreground, in the background, or as a teammate.',
    inputSchema: input,
    kind: 'agent',
    permissionSubject: agentTypeSubject,
    riskLevel: 'medium',
    // A foreground sub-agent may work for a while; its own budgets bound it.
    timeoutMs: 30 * 60_000,
    async execute(args, ctx) {
      const frame = callerFrame(ctx, 'agent');
      return spawnSubagent(frame, { agent: args.agent, prompt: args.prompt, mode: args.mode }, ctx.signal);
    },
  });
}
