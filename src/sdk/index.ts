/**
 * `twinline/sdk`: drive a Twinline engine from a host program (an IDE extension, a pipeline) over
 * the stream-json control protocol.
 */
export { ProtocolError } from '../protocol/errors.js';
export { EventQueue } from './event-queue.js';
export { type SeedFile, TwinlineAgent } from './twinline-agent.js';
export type {
  PermissionDecision,
  PermissionHandler,
  PermissionRequest,
  PreToolUseDecision,
  PreToolUseEvent,
  PreToolUseHandler,
  TwinlineAgentOptions,
  TwinlineEvent,
  TwinlineMessage,
  TwinlineNotice,
  TwinlineResult,
} from './types.js';
