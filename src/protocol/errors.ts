import { TwinlineError } from '../core/index.js';

/**
 * A protocol failure: a malformed line, an unknown request, a request that timed out, was
 * cancelled, or could not be answered because the host went away. `code` says which.
 */
export class ProtocolError extends TwinlineError {}

/** Stable codes carried by {@link ProtocolError}. */
export const PROTOCOL_ERROR_CODES = {
  malformedLine: 'protocol.malformed_line',
  oversizedLine: 'protocol.oversized_line',
  invalidMessage: 'protocol.invalid_message',
  unsupportedRequest: 'protocol.unsupported_request',
  duplicateRequestId: 'protocol.duplicate_request_id',
  timeout: 'protocol.timeout',
  cancelled: 'protocol.cancelled',
  hostGone: 'protocol.host_gone',
  errorResponse: 'protocol.error_response',
  /** The engine refused a permission mode: the working folder is not trusted. */
  trustGate: 'protocol.trust_gate',
  closed: 'protocol.closed',
} as const;
