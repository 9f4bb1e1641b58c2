/**
 * `twinline`: the library. Every name here is listed, with what it is for, in docs/api.md, and
 * `test/package/public-surface.test.ts` holds the built package to exactly that list: anything
 * else is internal and may change without notice. The HTTP server is `twinline/server` and the
 * host-side client is `twinline/sdk`, so importing `twinline` never loads either.
 */

export { TrustGateError } from './access/index.js';
// The assembled system, and the smaller runtime under it.
export {
  type AccessPortOptions,
  type AgentEvent,
  type AgentEventListener,
  type AgentEventType,
  AgentSession,
  type AgentSessionOptions,
  type ControlToolOptions,
  createAccessPort,
  createControlTools,
  createProvider,
  InterruptedError,
  type ModelProvider,
  type ProviderConfig,
  type RunHandle,
  type RunOptions,
  type RunResult,
  type RunStatus,
  SessionBusyError,
  type SubagentDefinition,
} from './agent/index.js';
// Configuration.
export {
  type ConfigSource,
  configSource,
  type LoadConfigOptions,
  loadConfig,
  loadTools,
  type ToolsContext,
  type TwinlineConfig,
} from './config/index.js';
// The shared vocabulary and the errors every layer throws.
export {
  type AttributeValue,
  ConfigError,
  DATA_LEVELS,
  type DataLevel,
  type DecidedBy,
  type Identity,
  type StageDecision,
  TwinlineError,
  type Verdict,
} from './core/index.js';
export { stripWatermark } from './gates/index.js';
// The gateway every tool call passes.
export {
  type ApprovalAnswer,
  type ApprovalRequest,
  type Approver,
  type CallContext,
  type GatewayCheck,
  type GatewayResult,
  type ToolCall,
  ToolGateway,
} from './gateway/index.js';
export type { GatedRequestResult, RequestOutcome } from './lines/index.js';
export { PipelineError, type ProfileName } from './pipeline/index.js';
export {
  createPlatform,
  type LineName,
  type Platform,
  type PlatformOptions,
  type PlatformRequestOptions,
  type ReviewDecisionResult,
} from './platform/index.js';
export { createRuntime, IdentityDirectory, type Runtime, type RuntimeOptions } from './runtime/index.js';
// The store: audit, reviews, tasks.
export {
  type AuditRecord,
  type OpenStoreOptions,
  openStore,
  type ReviewItem,
  type ReviewStatus,
  type Store,
  StoreError,
  type TaskRecord,
  TenantScopeError,
} from './store/index.js';
// Tool manifests and the registry that checks them.
export {
  type FieldTag,
  type PermissionSubject,
  type PermissionSubjectKind,
  RISK_LEVELS,
  type RiskLevel,
  TOOL_KINDS,
  type ToolAnnotations,
  ToolBackendError,
  type ToolExecutionContext,
  type ToolKind,
  type ToolManifestEntry,
  type ToolPermissions,
  type ToolRegistrationCode,
  ToolRegistrationError,
  ToolRegistry,
  type ToolSpec,
} from './tools/index.js';
