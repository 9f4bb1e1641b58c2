import type { GatewayStage, ResultStage } from '../types.js';
import { rbacStage } from './rbac-stage.js';
import { reviewStage } from './review-stage.js';
import { schemaStage } from './schema-stage.js';

export { createHookStage, HOOK_STAGE } from './hook-stage.js';
export { checkRbac, checkTenancy, rbacStage } from './rbac-stage.js';
export { reviewStage } from './review-stage.js';
export { schemaStage, validateArgs } from './schema-stage.js';

/** The gateway's own stages, in canonical order (docs/foundation.md, "The gateway"). */
export function defaultStages(): GatewayStage[] {
  return [schemaStage, rbacStage, reviewStage];
}

/** No built-in result transforms yet: output passes through unchanged. */
export function defaultResultStages(): ResultStage[] {
  return [];
}
