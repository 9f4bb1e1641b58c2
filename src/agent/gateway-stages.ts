import { createAccessStage, createApprovalStage } from '../access/index.js';
import { defaultStages, type GatewayStage, insertStage } from '../gateway/index.js';
import type { ToolSpec } from '../tools/index.js';

/**
 * The gateway stages an agent runtime needs on top of a base list: the access stage first (the
 * agent may use the tool at all, `tool_call` followed to its target) and the approval stage after
 * review (the agent's mode and permission rules). Stages already present are kept as they are.
 */
export function agentGatewayStages(
  resolveTool: (name: string) => ToolSpec | undefined,
  base: readonly GatewayStage[] = defaultStages(),
): GatewayStage[] {
  let stages = [...base];
  if (!stages.some((s) => s.name === 'access')) {
    stages = insertStage(stages, createAccessStage(), { before: stages[0]?.name ?? 'schema' });
  }
  if (!stages.some((s) => s.name === 'approval')) {
    stages = insertStage(stages, createApprovalStage({ resolveTool }), { after: 'review' });
  }
  return stages;
}
