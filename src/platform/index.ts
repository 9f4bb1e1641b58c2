export {
  createPlatform,
  type LineName,
  type Platform,
  type PlatformOptions,
  type ReviewDecisionResult,
} from './create-platform.js';
export { LineToolCatalog, withBreaker } from './line-tools.js';
export { gateOutput, loadWatermarkKey, type OutputGateOptions } from './output-gate.js';
export { type RoutingEntry, RoutingLog } from './routing-log.js';
