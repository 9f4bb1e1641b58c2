import { TwinlineError } from '../core/index.js';
import type { AgentFrameRef } from '../tools/index.js';

/** An interactive tool (ask_user) was called by an agent that has no person to ask. */
export class InteractiveToolError extends TwinlineError {
  constructor(tool: string, agent: AgentFrameRef, why: 'background' | 'teammate' | 'sub-agent') {
    super(
      'access.interactive-caller',
      `${tool} needs the user, but it was called by ${why} agent "${agent.name}"; answer from what you have or return the question to your caller.`,
      { where: tool, details: { agent: agent.name, depth: agent.depth, reason: why } },
    );
  }
}

/**
 * The second check inside interactive tools: throws {@link InteractiveToolError} unless the
 * caller is the main agent. The tool-set layer already hides these tools from spawned agents;
 * this holds even if a bug let one through.
 */
export function assertInteractiveCaller(ctx: { readonly agent?: AgentFrameRef }, tool = 'ask_user'): void {
  const agent = ctx.agent;
  if (!agent) return;
  if (agent.background) throw new InteractiveToolError(tool, agent, 'background');
  if (agent.teammate) throw new InteractiveToolError(tool, agent, 'teammate');
  if (agent.depth > 0) throw new InteractiveToolError(tool, agent, 'sub-agent');
}
