export {
  type AttributeKind,
  type AttributeType,
  attributeTypeOfJsonSchema,
  type PolicySchema,
  type PolicySchemaInput,
  policySchema,
  type ToolShape,
} from './attribute-schema.js';
export {
  cedarArgs,
  cedarEntities,
  cedarRequest,
  cedarString,
  conditionToCedar,
  MANIFEST_CEDAR,
  principalId,
  ruleToCedar,
  toCedarPolicies,
} from './cedar-export.js';
export { compileCondition, compilePath } from './condition.js';
export { type ConditionProblem, type ConditionScope, checkCondition } from './condition-check.js';
export {
  declaredCapabilities,
  type IntentPhrases,
  intentWords,
  mentionsPhrase,
} from './declared-capabilities.js';
export { BUILTIN_RULES, PolicyEngine, toolFacts } from './engine.js';
export {
  type DecisionEnv,
  type PrincipalView,
  principalView,
  riskRank,
  type ToolView,
  toolView,
} from './environment.js';
export { PolicyConfigError, type PolicyLocation } from './errors.js';
export { createIntentStage, type IntentExtension } from './intent-stage.js';
export { createParameterStage } from './parameters/index.js';
export { checkPolicyDocument, toolsInScope } from './policy-check.js';
export { DEFAULT_THIRD_PARTY, parsePolicyDocument } from './policy-document.js';
export {
  loadPolicyEngine,
  loadPolicyFile,
  loadPolicyFiles,
  loadReviewerFile,
  type PolicyFilesOptions,
  parsePolicyYaml,
  parseYamlWithLines,
} from './policy-loader.js';
export { mergePolicyDocuments } from './policy-merge.js';
export { createPolicyStage } from './policy-stage.js';
export {
  compileReviewers,
  parseReviewerDocument,
  type ReviewerRule,
  type ReviewerSet,
  type ReviewerVerdict,
  type ReviewSubject,
  type SelfApprovalRule,
} from './review/reviewer-document.js';
export { normaliseForMatch, ShingleLedger, type ShingleLedgerOptions } from './third-party-ledger.js';
export type * from './types.js';
