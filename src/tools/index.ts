export {
  type AgentFrameRef,
  type FieldTag,
  RISK_LEVELS,
  type RiskLevel,
  TOOL_KINDS,
  type ToolAnnotations,
  type ToolExecutionContext,
  type ToolKind,
  type ToolPermissions,
  type ToolSpec,
} from './spec.js';
