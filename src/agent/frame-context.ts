import type { CallerHandle, ToolExecutionContext } from '../tools/index.js';
import type { AgentFrame } from './agent-frame.js';
import { NoAgentFrameError } from './errors.js';

/**
 * Which agent issued a tool call: the handle the runtime puts in the call's context
 * (`CallContext.caller`), which the gateway hands to the tool (`ctx.caller`), so control tools
 * find their caller through queues, timers or anything else that loses async context. Only this
 * module can read a handle back, and only until the call ends. No AsyncLocalStorage: once enabled
 * it puts a hook on every promise in the process, which costs every request of a server, not only
 * agent runs.
 */
class CallerToken {
  static #bound = 0;
  #frame: AgentFrame | undefined;

  constructor(frame: AgentFrame) {
    this.#frame = frame;
    CallerToken.#bound++;
  }

  static frameOf(handle: unknown): AgentFrame | undefined {
    return handle instanceof CallerToken ? handle.#frame : undefined;
  }

  static get bound(): number {
    return CallerToken.#bound;
  }

  release(): void {
    if (this.#frame === undefined) return;
    this.#frame = undefined;
    CallerToken.#bound--;
  }
}

/** A handle on `frame` for one call, and the release that ends it when the call does. */
export function bindCall(frame: AgentFrame): { readonly caller: CallerHandle; release(): void } {
  const token = new CallerToken(frame);
  return { caller: token as unknown as CallerHandle, release: () => token.release() };
}

/** The agent that issued a tool call, from the handle its context carries. */
export function callerFrame(ctx: Pick<ToolExecutionContext, 'caller'>, tool: string): AgentFrame {
  const frame = CallerToken.frameOf(ctx.caller);
  if (!frame) throw new NoAgentFrameError(tool);
  return frame;
}

/** Number of calls currently bound (for tests: nothing should stay bound after a run). */
export function boundCallCount(): number {
  return CallerToken.bound;
}
