export { ToolBackendError } from './backend-error.js';
export {
  type EngineStatePath,
  type EngineStateRoots,
  engineStatePaths,
  isEngineStatePath,
  matchEngineState,
  matchSecretEngineState,
  readableInStateTree,
  VCS_CONTROL_PATHS,
} from './engine-state.js';
export { agentTypeSubject, commandSubject, hostSubject, pathSubject } from './permission-subjects.js';
export { findManifestViolation, TOOL_NAME_PATTERN } from './registration-checks.js';
export { type ToolRegistrationCode, ToolRegistrationError } from './registration-error.js';
export { type ToolManifestEntry, ToolRegistry, toManifestEntry } from './registry.js';
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
} from './spec.js';
