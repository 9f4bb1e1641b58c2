export { createPlatform } from './create-platform.js';
export { LineToolCatalog, withBreaker } from './line-tools.js';
export type { LineName, Platform, PlatformOptions, PlatformRequestOptions } from './platform-types.js';
export { type ReviewDecisionResult, ReviewWorkflow, type ReviewWorkflowDeps } from './review-workflow.js';
export { type RoutingEntry, RoutingLog } from './routing-log.js';
export { TaskScheduler, type TaskSchedulerDeps } from './task-scheduler.js';
