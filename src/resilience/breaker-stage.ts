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
    async evaluate(call: PreparedCall): Promise<StageDecision> {
      const tool = call.tool.name;
      const local = breakers.state(tool);
      // Another process's open breaker counts too; a half-open trial here is this process's call.
      if (
        local === 'open' ||
        (local === 'closed' && breakers.shared && (await breakers.shared.isOpen(tool)))
      ) {
        return decide(
          'deny',
          'breaker',
          CIRCUIT_OPEN_RULE,
          `Tool ${tool} is temporarily unavailable; try an alternative or tell the user.`,
          { details: { status: 'unavailable' } },
        );
      }
      return decide('allow', 'breaker', 'resilience.circuit-closed', 'Circuit closed.');
    },
  };
}
