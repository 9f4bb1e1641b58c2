import type { GatewayStage } from '../gateway/types.js';
import { PolicyEngine } from './engine.js';
import { createIntentStage } from './intent-stage.js';
import { createParameterStage } from './parameters/index.js';
import { createPolicyStage } from './policy-stage.js';
import type { PolicyDocument } from './types.js';

export interface PolicyStageOptions {
  /** Leave out the intent stage (only for a gateway that never serves a model's calls). */
  readonly intent?: boolean;
}

/**
 * The policy layer's gateway stages in canonical order — `policy`, `parameters`, `intent` — to
 * put between Foundation's `schema` and `review` (replacing the plain `rbac` stage).
 */
export function createPolicyStages(doc: PolicyDocument, options: PolicyStageOptions = {}): GatewayStage[] {
  return [
    createPolicyStage(new PolicyEngine(doc)),
    createParameterStage(doc.parameters),
    ...(options.intent === false ? [] : [createIntentStage()]),
  ];
}
