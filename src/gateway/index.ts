export { toolUnavailable } from '../core/index.js';
export { type ExecutionOutcome, executeWithTimeout } from './execute-with-timeout.js';
export { freezeShared, isSharedFrozen, outputJson } from './frozen-output.js';
export { renderModelContent } from './model-content.js';
export { summariseOutput } from './result-summary.js';
export type { ApprovedReview, QueuedReview, ReviewExecutionLedger, ReviewQueue } from './review-queue.js';
export {
  checkRbac,
  checkTenancy,
  createHookStage,
  defaultResultStages,
  defaultStages,
  HOOK_STAGE,
  rbacStage,
  reviewStage,
  schemaStage,
  validateArgs,
} from './stages/index.js';
export {
  type AuditArguments,
  type GatewayCheck,
  type ReviewReplay,
  ToolGateway,
  type ToolGatewayOptions,
  type ToolLookup,
  withoutArgs,
} from './tool-gateway.js';
export type {
  ApprovalAnswer,
  ApprovalRequest,
  Approver,
  CallContext,
  CallObservation,
  GatewayObserver,
  GatewayResult,
  GatewayStage,
  ObservedCallEnd,
  PreparedCall,
  ResultStage,
  ResultTransform,
  StageObservation,
  ThirdPartyTextLedger,
  ToolCall,
  ToolHookAnswer,
  ToolHooks,
} from './types.js';
