import { decide, type StageDecision } from './decision.js';

/**
 * The one refusal for a tool that does not exist and for a tool this agent may not see: the same
 * stage, rule and text, so the model cannot probe which tools exist.
 */
export function toolUnavailable(name: string): StageDecision {
  return decide('deny', 'access', 'tool.unavailable', `Tool ${name} is not available.`);
}
