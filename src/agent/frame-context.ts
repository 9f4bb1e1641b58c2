import type { ToolExecutionContext } from '../tools/index.js';
import type { AgentFrame } from './agent-frame.js';
import { NoAgentFrameError } from './errors.js';

/**
 * Which agent issued a tool call. Every gateway call an agent makes is registered here by its
 * (fresh, runtime-made) call id for the duration of the call, so control tools find their caller
 * from `ctx.callId` alone — through queues, timers or anything else that loses async context.
 * No AsyncLocalStorage: once enabled it puts a hook on every promise in the process, which costs
 * every request of a server, not only agent runs.
 */
const framesByCall = new Map<string, AgentFrame>();

/** Registers the frame that issued `callId` for the duration of the call. */
export function bindCall(callId: string, frame: AgentFrame): () => void {
  framesByCall.set(callId, frame);
  return () => {
    framesByCall.delete(callId);
  };
}

/** The agent that issued a tool call, from its call id. */
export function callerFrame(ctx: ToolExecutionContext, tool: string): AgentFrame {
  const frame = framesByCall.get(ctx.callId);
  if (!frame) throw new NoAgentFrameError(tool);
  return frame;
}

/** Number of calls currently bound (for tests: nothing should stay bound after a run). */
export function boundCallCount(): number {
  return framesByCall.size;
}
