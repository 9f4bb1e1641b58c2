import { ToolBackendError } from '../tools/index.js';

/** A call that ran past its tool's timeout: the breaker counts it the moment the timeout passes. */
export class ToolTimeoutError extends Error {
  readonly code = 'timeout';
  constructor(
    readonly tool: string,
    readonly timeoutMs: number,
  ) {
    super(`${tool} timed out after ${timeoutMs} ms.`);
  }
}

/** Socket and DNS failures of a backend the tool talks to: the service, not the request, failed. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
]);

/**
 * Whether a failure is the tool's own — a timeout, a backend's 5xx, a lost connection, or a
 * `ToolBackendError` — rather than the caller's (bad arguments, a record that does not exist,
 * anything unrecognised). Only the tool's own failures count towards the tool-wide breaker; an
 * unrecognised error is the caller's, so a tenant cannot make a tool look broken to everyone by
 * sending arguments that make it throw.
 */
export function isToolFault(err: unknown): boolean {
  if (err instanceof ToolTimeoutError || err instanceof ToolBackendError) return true;
  if (err === null || typeof err !== 'object') return false;
  const e = err as { status?: unknown; statusCode?: unknown; code?: unknown; cause?: unknown };
  const status = typeof e.status === 'number' ? e.status : e.statusCode;
  if (typeof status === 'number' && status >= 500 && status <= 599) return true;
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return true;
  // fetch() wraps the socket error: TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }).
  const cause = e.cause as { code?: unknown } | undefined;
  return typeof cause?.code === 'string' && NETWORK_CODES.has(cause.code);
}
