import { decide, type StageDecision } from '../core/index.js';
import type { CallContext, GatewayStage, PreparedCall } from '../gateway/types.js';
import type { ToolSpec } from '../tools/index.js';
import { type PolicyEngine, toolFacts } from './engine.js';
import type { ToolFacts } from './types.js';

const factsCache = new WeakMap<ToolSpec, ToolFacts>();

function factsOf(tool: ToolSpec): ToolFacts {
  let f = factsCache.get(tool);
  if (!f) {
    f = toolFacts(tool);
    factsCache.set(tool, f);
  }
  return f;
}

/**
 * The gateway's `policy` stage. Identity is read from `ctx.identity` only — whatever the
 * arguments or the conversation claim about roles, tenants or users is data, never a grant.
 */
export function createPolicyStage(engine: PolicyEngine): GatewayStage {
  return {
    name: 'policy',
    evaluate(call: PreparedCall, ctx: CallContext): StageDecision {
      const d = engine.decide(ctx.identity, factsOf(call.tool), call.args);
      return decide(d.effect, 'policy', d.ruleId, d.reason);
    },
  };
}
