export { BUCKETS, inCanary, percentToBasisPoints, userBucket } from './assignment.js';
export {
  CanaryService,
  type CanaryStatus,
  type ConfigVersion,
  type ConfigVersionSnapshot,
  type ResolvedConfigVersion,
  type Rollout,
  resolveConfigVersion,
} from './canary-service.js';
export { hashConfigVersion } from './config-hash.js';
export { CanaryError } from './errors.js';
export {
  DEFAULT_ROLLBACK_POLICY,
  decideRollback,
  type RollbackPolicy,
  successRate,
  type VersionMetrics,
} from './rollback-decision.js';
