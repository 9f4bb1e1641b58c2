import type { StageDecision } from '../../core/index.js';
import type { GatewayStage, PreparedCall } from '../types.js';

const ALLOW: StageDecision = Object.freeze({
  verdict: 'allow',
  stage: 'review',
  ruleId: 'review.not-required',
  reason: 'tool does not require review',
});

/** Tools declaring `requiresReview` never run directly: the call is queued for a human reviewer. */
export const reviewStage: GatewayStage = {
  name: 'review',
  evaluate(call: PreparedCall): StageDecision {
    if (!call.tool.requiresReview) return ALLOW;
    return {
      verdict: 'review',
      stage: 'review',
      ruleId: 'review.required',
      reason: `${call.tool.name} is a ${call.tool.riskLevel}-risk tool and runs only after a reviewer approves it.`,
    };
  },
};
