/** The output gate: field redaction by tag and data level, free-text PII, outbound classifier. */

export { type AuditArgumentOptions, auditArgumentRedactor, type TaggedTool } from './audit-arguments.js';
export {
  classifyOutbound,
  countsAsOutboundPii,
  type OutboundOptions,
  OutboundTracker,
  type OutboundVerdict,
} from './exfiltration.js';
export { type CompiledPath, compilePath, resolveSlots, type Slot } from './field-paths.js';
export {
  DEFAULT_TAG_POLICIES,
  DEFAULT_TAG_POLICY,
  type FieldAction,
  type FieldAggregate,
  type FieldRedactionConfig,
  type FieldRedactionNote,
  policyFor,
  redactFields,
  type TagPolicy,
} from './field-redaction.js';
export {
  type FindPiiOptions,
  findPii,
  HIGH_TIER,
  type PiiFinding,
  type PiiScan,
  type PiiSpan,
  scanPii,
} from './pii/find.js';
export { maskValue } from './pii/mask.js';
export { PII_RECOGNISERS, PII_TYPES, type PiiType } from './pii/recognisers.js';
export {
  DEFAULT_TEXT_POLICY,
  hiddenFrom,
  maskSlice,
  type RedactTextResult,
  redactText,
  type TextRedactionPolicy,
} from './pii/redact-text.js';
export {
  cnIdCheckChar,
  cnResidentIdValid,
  ibanValid,
  ipv4Valid,
  ipv6Valid,
  luhnValid,
  usSsnValid,
} from './pii/validators.js';
export { createRedactionStage, type RedactionStageConfig } from './redaction-stage.js';
