export { CIRCUIT_OPEN_RULE, createBreakerStage } from './breaker-stage.js';
export {
  BreakerOpenError,
  type BreakerOptions,
  type BreakerScopeName,
  type BreakerState,
  type TenantBreakerRow,
  type ToolBreakerOverview,
  ToolBreakers,
} from './breakers.js';
export {
  type AdmissionJob,
  AdmissionRefusedError,
  DeepAdmission,
  type DeepAdmissionOptions,
  type QueueTicket,
} from './deep-admission.js';
export {
  type AdmissionLimits,
  estimateStart,
  FairQueue,
  type QueuedJob,
  RunningCounts,
  type RunningJob,
} from './fair-queue.js';
export { type RateLimitOutcome, UserRateLimiter, type UserRateLimiterOptions } from './rate-limit.js';
export { createRateLimitStage, RATE_LIMITED_RULE, type RateLimitStageOptions } from './rate-limit-stage.js';
export { type BreakerScope, SharedBreakerState } from './shared-breaker-state.js';
export { isToolFault, ToolTimeoutError } from './tool-fault.js';
export { ToolWideBreaker, type ToolWideBreakerOptions } from './tool-wide-breaker.js';
