import { AsyncLocalStorage } from 'node:async_hooks';
import type { ToolExecutionContext } from '../tools/index.js';
import type { AgentFrame } from './agent-frame.js';
import { NoAgentFrameError } from './errors.js';

/**
 * Which agent is running. Each agent's loop runs inside `agentContext.run(frame, …)` (teammates
 * thereby get their own in-process context), and every gateway call is also registered by its
 * call id, so control tools find their caller even if a queue in the gateway breaks async context.
 */
export const agentContext = new AsyncLocalStorage<AgentFrame>();

const framesByCall = new Map<string, AgentFrame>();

/** Registers the frame that issued `callId` for the duration of the call. */
export function bindCall(callId: string, frame: AgentFrame): () => void {
  framesByCall.set(callId, frame);
  return () => {
    framesByCall.delete(callId);
  };
}

/** The agent that issued a tool call, from its call id, else from the async context. */
export function callerFrame(ctx: ToolExecutionContext, tool: string): AgentFrame {
  const frame = framesByCall.get(ctx.callId) ?? agentContext.getStore();
  if (!frame) throw new NoAgentFrameError(tool);
  return frame;
}

/** Number of calls currently bound (for tests: nothing should stay bound after a run). */
export function boundCallCount(): number {
  return framesByCall.size;
}
