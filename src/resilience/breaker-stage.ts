import { decide, type StageDecision } from '../core/index.js';
import type { CallContext, GatewayStage, PreparedCall } from '../gateway/index.js';
import type { BreakerScopeName, ToolBreakers } from './breakers.js';

/** Rule id of a call refused because a breaker of its tool is open. */
export const CIRCUIT_OPEN_RULE = 'resilience.circuit-open';

/**
 * Gateway stage `breaker`: an open breaker is a decision the agent sees ("temporarily unavailable,
 * try an alternative"), not an exception. The caller's tenant's own breaker of the tool and the
 * tool-wide one both count, here and (with Redis) in any other process; half-open lets the trial
 * call through to execute.
 */
export function createBreakerStage(breakers: ToolBreakers): GatewayStage {
  return {
    name: 'breaker',
    async evaluate(call: PreparedCall, ctx: CallContext): Promise<StageDecision> {
      const tool = call.tool.name;
      const tenant = ctx.identity.tenant;
      const scope = await openScope(breakers, tenant, tool);
      if (scope) {
        return decide(
          'deny',
          'breaker',
          CIRCUIT_OPEN_RULE,
          `Tool ${tool} is temporarily unavailable; try an alternative or tell the user.`,
          { details: { status: 'unavailable', scope } },
        );
      }
      return decide('allow', 'breaker', 'resilience.circuit-closed', 'Circuit closed.');
    },
  };
}

/** Which breaker refuses this tenant's call of the tool, if any. */
async function openScope(
  breakers: ToolBreakers,
  tenant: string,
  tool: string,
): Promise<BreakerScopeName | undefined> {
  const own = breakers.state(tenant, tool);
  const wide = breakers.toolState(tool);
  if (own === 'open') return 'tenant';
  if (wide === 'open') return 'tool';
  // Another process's open breaker counts too; a half-open trial here is this process's call.
  if (!breakers.shared || own === 'half_open' || wide === 'half_open') return undefined;
  const open = await breakers.shared.anyOpen([{ tenant, tool }, { tool }]);
  return open ? ('tenant' in open ? 'tenant' : 'tool') : undefined;
}
