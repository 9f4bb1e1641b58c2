export { bundleArtifact, packageRoot, runningFromBundle, sourcesMatch } from './bundle-artifacts.js';
export { canonicalJson, hashCanonical, sha256Hex } from './canonical.js';
export { type ConfigSource, configSource } from './config-source.js';
export { type DecidedBy, decide, decidedBy, type StageDecision, type Verdict } from './decision.js';
export { ConfigError, TwinlineError } from './errors.js';
export { importExternal, type ModuleImporter, setExternalImporter } from './external-import.js';
export {
  type AttributeValue,
  DATA_LEVELS,
  type DataLevel,
  dataLevelRank,
  type Identity,
} from './identity.js';
export { SANDBOX_PROFILES, type SandboxGrant, type SandboxProfile } from './sandbox-grant.js';
export type {
  ApprovalAnswer,
  ApprovalRequest,
  Approver,
  CallContext,
  GatewayStage,
  PreparedCall,
  ResultStage,
  ResultTransform,
  ThirdPartyTextLedger,
  ToolCall,
  ToolHookAnswer,
  ToolHooks,
} from './stage-contract.js';
export {
  type CallObservation,
  type GatewayObserver,
  type ObservedCallEnd,
  runInSpan,
  type SpanAttributes,
  type SpanAttributeValue,
  type SpanKindName,
  type SpanPort,
  type SpanStart,
  type StageObservation,
  type TracerPort,
} from './telemetry-port.js';
export {
  type AgentFrameRef,
  type CallerHandle,
  type FieldTag,
  type PermissionSubject,
  type PermissionSubjectKind,
  type ProcessSandboxPort,
  RISK_LEVELS,
  type RiskLevel,
  TOOL_KINDS,
  type ToolAnnotations,
  type ToolExecutionContext,
  type ToolKind,
  type ToolPermissions,
  type ToolSpec,
} from './tool-manifest.js';
export { toolUnavailable } from './tool-unavailable.js';
export { maskUuids, uuidSpans } from './uuid-mask.js';
export { uuidV7 } from './uuid-v7.js';
export { packageVersion } from './version.js';
export { segmentedText, wholeWords, wordTokens } from './words.js';
export { type LinedYaml, parseYamlWithLineNumbers, yamlPackage } from './yaml-package.js';
