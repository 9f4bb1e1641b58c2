// The manifest vocabulary lives in core beside the stage contract that names it
// (docs/architecture.md, "Where it differs"); this module builds, checks and registers manifests.
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
} from '../core/index.js';
