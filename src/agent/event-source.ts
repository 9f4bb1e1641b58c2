import type { AgentFrame } from './agent-frame.js';
import type { EventSource } from './events.js';

/** The fields that say which agent an event comes from. */
export function eventSource(frame: AgentFrame): EventSource {
  return { sessionId: frame.runtime.sessionId, agentId: frame.id, agent: frame.name, depth: frame.depth };
}
