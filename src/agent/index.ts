export { type AccessPortOptions, createAccessPort } from './access-port.js';
export type { AgentFrame } from './agent-frame.js';
export { boundedApprover, denyingApprover, observedApprover } from './approvers.js';
export { callBatches } from './call-batches.js';
export {
  ControlToolError,
  InterruptedError,
  type ModelFailure,
  modelFailureSentence,
  NoAgentFrameError,
  NoInteractiveUserError,
  NoProviderError,
  ProviderConfigError,
  ProviderError,
  ScriptExhaustedError,
  SubagentDepthError,
  UnknownAgentDefinitionError,
  UnknownTaskError,
} from './errors.js';
export {
  AGENT_EVENT_EGRESS,
  AgentEventEgress,
  type GatedAgentEvent,
  type OutputBlockedEvent,
} from './event-egress.js';
export {
  type AgentEvent,
  AgentEventBus,
  type AgentEventListener,
  type AgentEventType,
  type EventSource,
  EventStream,
  type RunStatus,
  type SubagentRunMode,
} from './events.js';
export { boundCallCount } from './frame-context.js';
export { runAgentLoop } from './loop.js';
export * from './mcp/index.js';
export * from './providers/index.js';
export { ResourceTracker } from './resource-tracker.js';
export { budgetStop, type RunBudget } from './run-budget.js';
export type { RunResult } from './run-result.js';
export { DEFAULT_LIMITS, type RuntimeLimits } from './runtime-limits.js';
export type {
  AccessFrame,
  AccessGrant,
  AgentAccess,
  AgentHooks,
  CallRoute,
  HookAgent,
  SubagentDefinition,
  ToolCatalog,
  ToolInvoker,
  UserQuestionHandler,
} from './runtime-ports.js';
export { hostHookText } from './runtime-ports.js';
export {
  AgentSession,
  type AgentSessionOptions,
  type RunHandle,
  type RunOptions,
  SessionBusyError,
} from './session.js';
export { TASK_STATUSES, TaskBoard, type TaskStatus, type TeamTask } from './task-board.js';
export { declarationOf, declarationsFor } from './tool-declarations.js';
export { type ControlToolOptions, createControlTools } from './tools/index.js';
