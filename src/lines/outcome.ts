import type { AgentEvent, RunStatus } from '../agent/index.js';
import type { RequestOutcome } from './events.js';

/**
 * The outcome of an agent run as the API and the evaluation suites name it, from the gateway's
 * decisions: a rate-limited call → `rate_limited`; a call parked for review → `review`; calls
 * refused and none executed → `denied`; otherwise how the run ended.
 */
export function outcomeOf(
  events: readonly AgentEvent[],
  text: string,
  status: RunStatus,
): { outcome: RequestOutcome; text: string; executed: string[]; denied: string[] } {
  const executed: string[] = [];
  const denied: string[] = [];
  let review = false;
  let limited = false;
  for (const e of events) {
    if (e.type !== 'decision') continue;
    if (e.status === 'executed') executed.push(e.tool);
    else if (e.status === 'review') review = true;
    else if (e.status === 'rate_limited' || e.decision.ruleId === 'resilience.rate-limited') limited = true;
    else if (e.status === 'denied' || e.status === 'ask') denied.push(e.tool);
  }
  let outcome: RequestOutcome;
  if (limited) outcome = 'rate_limited';
  else if (review) outcome = 'review';
  else if (denied.length > 0 && executed.length === 0) outcome = 'denied';
  else if (status === 'completed' || status === 'max_turns') outcome = 'completed';
  else outcome = 'failed';
  return { outcome, text, executed, denied };
}
