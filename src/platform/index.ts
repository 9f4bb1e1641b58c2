export {
  createPlatform,
  type LineName,
  type Platform,
  type PlatformOptions,
  type PlatformRequestOptions,
  type ReviewDecisionResult,
} from './create-platform.js';
export { LineToolCatalog, withBreaker } from './line-tools.js';
export { type RoutingEntry, RoutingLog } from './routing-log.js';
