/**
 * The router: decides, before any agent runs, whether a request goes to the deep line, the quick
 * line, or the read-only fallback (no tools). Imports nothing but `core/`.
 */
export { classify, modelLogits, type RouterModel, softmax } from './classifier.js';
export {
  type ConfiguredRouteRule,
  type ConfiguredRouter,
  compileRouteRules,
  createConfiguredRouter,
  type RouterSettings,
} from './configured-router.js';
export { type RequestContext, requestContext } from './context.js';
export { combineScores, MAX_RULE_BOOST, pickTarget } from './decide.js';
export {
  type CalibrationBin,
  type DomainTrainingResult,
  domainTrainingReport,
  trainForDomain,
} from './domain-training.js';
export { RouterModelError } from './errors.js';
export { featureStrings, hashFeatures, type SparseVector } from './features.js';
export { historyPrior } from './history.js';
export {
  decodeRouterModel,
  defaultModelPath,
  encodeRouterModel,
  type RouterModelFile,
  readRouterModel,
  shippedRouterModel,
} from './model-file.js';
export { normalizeRequest } from './normalize.js';
export { DEFAULT_KEEP_FLOOR, fitOperatingPoint, type OperatingPoint, RouteTally } from './operating-point.js';
export { type RouteSetup, route } from './route.js';
export { matchRules, ROUTE_RULES, type RouteRule, systemsMentioned } from './rules.js';
export {
  fitTemperature,
  type LabelledRequest,
  meanNll,
  seededRandom,
  shuffleSeeded,
  type TrainOptions,
  trainRouterModel,
} from './train.js';
export {
  DEFAULT_ROUTE_THRESHOLD,
  type LineScores,
  ROUTE_CLASSES,
  type RouteClass,
  type RouteDecision,
  type RouteFeatures,
  type RouteOptions,
  type RouteTarget,
  type RuleHit,
} from './types.js';
