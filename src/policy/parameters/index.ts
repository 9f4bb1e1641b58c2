export { createParameterStage } from './parameter-stage.js';
export { checkDate, checkNumber, checkOneOf, type SanityFailure } from './sanity-check.js';
export { checkScope, type ScopeOutcome } from './scope-check.js';
export { findThirdPartyArgument } from './third-party-check.js';
