/**
 * The stream-json control protocol: wire schemas, NDJSON framing, the `ControlBus` of engine →
 * host requests, the host-backed `Approver`, the two SDK dialects, and the engine behind
 * `twinline --input-format stream-json --output-format stream-json`.
 */
export {
  type Dialect,
  isStreamJsonInvocation,
  parseStreamJsonArgs,
  type StreamJsonOptions,
  splitFlags,
} from './argv.js';
export {
  ControlBus,
  type ControlBusOptions,
  type OutgoingRequest,
  type RequestOptions,
} from './control-bus.js';
export { type EngineOptions, promptText, StreamJsonEngine } from './engine.js';
export { PROTOCOL_ERROR_CODES, ProtocolError } from './errors.js';
export { DenyAllApprover, HostApprover, type HostApproverOptions } from './host-approver.js';
export { classifyHostLine, classifyOversizedLine, type HostLine, sniffRequestId } from './host-line.js';
export { DEFAULT_MAX_LINE_CHARS, type DecodedLine, encodeLine, LineDecoder } from './ndjson.js';
export {
  HOST_APPROVAL_MODES,
  type HostApprovalMode,
  type ResolvedMode,
  resolvePermissionMode,
  validPermissionModeNames,
} from './permission-modes.js';
export type { EngineRuntime, EngineRuntimeFactory, RuntimeConfig, RuntimeTurn } from './runtime.js';
export * from './schemas.js';
