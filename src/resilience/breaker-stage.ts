import { decide, type StageDecision } from '../core/index.js';
import type { GatewayStage, PreparedCall } from '../gateway/index.js';
import type { ToolBreakers } from './breakers.js';

/** Rule id of a call refused because its tool's breaker is open. */
export const CIRCUIT_OPEN_RULE = 'resilience.circuit-open';

/**
 * Gateway stage `breaker`: an open breaker is a decision the agent sees ("temporarily unavailable,
 * try an alternative"), not an exception. Half-open lets the trial call through to execute.
 */
export function createBreakerStage(breakers: ToolBreakers): GatewayStage {
  return {
    name: 'breaker',
    evaluate(call: PreparedCall): StageDecision {
      if (breakers.state(call.tool.name) === 'open') {
        return decide(
          'deny',
          'breaker',
          CIRCUIT_OPEN_RULE,
          `Tool ${call.tool.name} is temporarily unavailable; try an alternative or tell the user.`,
          { details: { status: 'unavailable' } },
        );
      }
      return decide('allow', 'breaker', 'resilience.circuit-closed', 'Circuit closed.');
    },
  };
}
