/** The input gate: normalisation, injection recognisers, scoring and the gateway stage. */
export { CHANNEL_WEIGHTS, CHANNELS, type Channel } from './combine.js';
export { createInputGate, type InputGate, type InputGateConfig } from './gate.js';
export {
  createGuardClient,
  type GuardClient,
  type GuardConfig,
  type GuardOutcome,
  parseGuardVerdict,
} from './guard/guard-client.js';
export { type GuardedScanResult, scanWithGuard } from './guard/guarded-scan.js';
export { InjectionModelError } from './learned/model.js';
export { cuePrefilter } from './learned/windows.js';
export { type NormalizedText, normalizeText, toOriginalRange } from './normalize.js';
export { type DecodedPayload, decodeBase64Payloads } from './payloads.js';
export { CUE_KEYWORD_INDEX_ARTIFACT, KEYWORD_INDEX_ARTIFACT } from './prebuilt-keyword-index.js';
export { INJECTION_TYPES, type InjectionType, RECOGNISERS, type Recogniser } from './recognisers.js';
export { type Finding, injectionPrefilter, type ScanOptions, type ScanResult, scanText } from './scan.js';
export { DEFAULT_THRESHOLDS, type ScanVerdict, type Thresholds, verdictFor } from './verdict.js';
