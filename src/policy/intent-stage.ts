import { decide, type StageDecision } from '../core/index.js';
import type { CallContext, GatewayStage, PreparedCall } from '../gateway/types.js';
import { riskRank } from './environment.js';

/** `ctx.extensions.intent` — set by the runtime (never the model) to opt a context out. */
export interface IntentExtension {
  /** `false` lets undeclared high-risk calls through for this context (e.g. an interactive CLI). */
  readonly enforce?: boolean;
}

const HIGH = riskRank('high');

/**
 * The `intent` stage: a high- or critical-risk call is allowed only when the task declared the
 * tool (or its category) up front in `ctx.declaredCapabilities`. Otherwise the call is blocked
 * and the agent is told to replan. A context with no declaration fails closed, unless the
 * runtime explicitly opted it out through `ctx.extensions.intent.enforce === false`.
 */
export function createIntentStage(): GatewayStage {
  return {
    name: 'intent',
    evaluate(call: PreparedCall, ctx: CallContext): StageDecision {
      const tool = call.tool;
      if (riskRank(tool.riskLevel) < HIGH) {
        return decide('allow', 'intent', 'intent.not-high-risk', `${tool.name} is not a high-risk tool`);
      }
      const declared = ctx.declaredCapabilities;
      if (declared?.includes(tool.name) || declared?.includes(tool.permissions.category)) {
        return decide('allow', 'intent', 'intent.declared', `the task declared ${tool.name}`);
      }
      const ext = ctx.extensions?.intent as IntentExtension | undefined;
      if (declared === undefined && ext?.enforce === false) {
        return decide('allow', 'intent', 'intent.not-enforced', 'intent checking is off for this context');
      }
      const replan =
        `${tool.name} is a ${tool.riskLevel}-risk tool that this task never declared it needs. ` +
        'Do not retry it: replan with the tools the task declared, or tell the user this action needs a new, explicit request.';
      return decide(
        'deny',
        'intent',
        declared === undefined ? 'intent.no-declaration' : 'intent.undeclared',
        replan,
        {
          details: { tool: tool.name, category: tool.permissions.category, declared: declared ?? [] },
        },
      );
    },
  };
}
