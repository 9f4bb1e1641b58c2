export { configPolicySchema, loadConfigPolicy } from './config-policy.js';
export { PipelineError } from './errors.js';
export { explainLines } from './explain.js';
export { memoizeResultStage } from './memoized-result-stage.js';
export {
  allowlistState,
  type EffectiveSlot,
  type GatewaySite,
  Pipeline,
  type PipelineLayers,
} from './pipeline.js';
export {
  checkProfile,
  type PipelineProfile,
  PROFILE_NAMES,
  PROFILES,
  type ProfileName,
  profileNamed,
  reviewReplayProfile,
  type SlotSetting,
} from './profiles.js';
export { RegisteredNames } from './registered-names.js';
export {
  DECISION_SLOTS,
  type DecisionSlot,
  RESULT_SLOTS,
  type ResultSlot,
  SLOT_PURPOSE,
  SLOTS,
  type Slot,
} from './slots.js';
