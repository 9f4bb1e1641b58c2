import type { StageDecision } from '../core/index.js';
import type { CallStatus } from '../store/index.js';
import { outputJson } from './frozen-output.js';

/**
 * Exactly what the model is told about a call: the processed output as JSON, or a refusal naming
 * the stage and the reason. Refusals carry the stage's reason only — never data.
 */
export function renderModelContent(
  tool: string,
  status: CallStatus,
  decision: StageDecision,
  extra: { output?: unknown; error?: { message: string }; reviewId?: string },
  path: readonly StageDecision[] = [],
): string {
  switch (status) {
    case 'executed': {
      // A stage that rewrote the arguments (scope narrowing) says so, so the model knows why the
      // result is narrower than what it asked for.
      const notes = path.filter(
        (d) => d.verdict === 'allow' && d.updatedArgs !== undefined && d.stage !== 'schema',
      );
      // A shared (cached) output is serialised once, not on every call that returns it.
      const json = outputJson(extra.output ?? null);
      return notes.length
        ? `${notes.map((d) => `Note (${d.stage}): ${d.reason}`).join('\n')}\n${json}`
        : json;
    }
    case 'denied':
      if (decision.ruleId === 'tool.unavailable') return decision.reason;
      return `Call to ${tool} was denied by stage ${decision.stage} (${decision.ruleId}): ${decision.reason}`;
    case 'review':
      return `Call to ${tool} was not executed: it is waiting for human review (review ${extra.reviewId}). ${decision.reason}`;
    case 'ask':
      return `Call to ${tool} was not executed: it needs approval (${decision.stage}/${decision.ruleId}): ${decision.reason}`;
    case 'rate_limited':
      return `Call to ${tool} was not executed: rate limited (${decision.ruleId}): ${decision.reason}`;
    default:
      return `Call to ${tool} ${status}: ${extra.error?.message ?? decision.reason}`;
  }
}
