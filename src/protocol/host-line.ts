import { PROTOCOL_ERROR_CODES } from './errors.js';
import type { ControlRequestEnvelope, ControlResponseEnvelope, UserMessage } from './schemas.js';
import {
  checkCancelEnvelope,
  checkControlRequestEnvelope,
  checkControlResponseEnvelope,
  checkUserMessage,
} from './wire-checks.js';

/**
 * What one line from the host is, decided before anything acts on it. Pure: parsing and schema
 * checks only. Anything `invalid` is answered with an error and never executed.
 */
export type HostLine =
  | { readonly kind: 'ignore' }
  | { readonly kind: 'user'; readonly message: UserMessage }
  | { readonly kind: 'control_request'; readonly envelope: ControlRequestEnvelope }
  | { readonly kind: 'control_response'; readonly envelope: ControlResponseEnvelope }
  | { readonly kind: 'control_cancel'; readonly requestId: string }
  | {
      readonly kind: 'invalid';
      readonly code: string;
      readonly reason: string;
      /** Present when an id could be read: the error goes back as a `control_response`. */
      readonly requestId?: string;
      /** The line claimed to be a response to one of the engine's requests. */
      readonly claimedResponse?: boolean;
    };

/** Message types hosts send that carry nothing for the engine. */
const IGNORED_TYPES = new Set(['keep_alive', 'update_environment_variables', 'transcript_mirror']);

const REQUEST_ID_PATTERN = /"request_id"\s*:\s*"((?:[^"\\\n]|\\.){1,256})"/;

/** Best-effort read of a `request_id` from text that may not be valid JSON. */
export function sniffRequestId(text: string): string | undefined {
  const m = REQUEST_ID_PATTERN.exec(text);
  if (!m) return undefined;
  try {
    const id = JSON.parse(`"${m[1]}"`) as unknown;
    return typeof id === 'string' && id.length > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}

function readRequestId(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const top = (value as Record<string, unknown>)['request_id'];
  if (typeof top === 'string' && top.length > 0 && top.length <= 256) return top;
  const inner = (value as Record<string, unknown>)['response'];
  if (typeof inner === 'object' && inner !== null) {
    const id = (inner as Record<string, unknown>)['request_id'];
    if (typeof id === 'string' && id.length > 0 && id.length <= 256) return id;
  }
  return undefined;
}

function invalid(
  code: string,
  reason: string,
  requestId: string | undefined,
  claimedResponse = false,
): HostLine {
  return {
    kind: 'invalid',
    code,
    reason,
    ...(requestId !== undefined ? { requestId } : {}),
    ...(claimedResponse ? { claimedResponse } : {}),
  };
}

/** Classifies one complete line (without its newline). */
export function classifyHostLine(text: string): HostLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const claimed = /"type"\s*:\s*"control_response"/.test(text);
    return invalid(
      PROTOCOL_ERROR_CODES.malformedLine,
      'line is not valid JSON',
      sniffRequestId(text),
      claimed,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return invalid(PROTOCOL_ERROR_CODES.invalidMessage, 'line is not a JSON object', undefined);
  }
  const obj = value as Record<string, unknown>;
  const type = obj['type'];
  switch (type) {
    case 'user': {
      const problem = checkUserMessage(obj);
      return problem
        ? invalid(PROTOCOL_ERROR_CODES.invalidMessage, `user message: ${problem}`, undefined)
        : { kind: 'user', message: obj as UserMessage };
    }
    case 'control_request': {
      const problem = checkControlRequestEnvelope(obj);
      return problem
        ? invalid(PROTOCOL_ERROR_CODES.invalidMessage, `control_request: ${problem}`, readRequestId(value))
        : { kind: 'control_request', envelope: obj as ControlRequestEnvelope };
    }
    case 'control_response': {
      const problem = checkControlResponseEnvelope(obj);
      return problem
        ? invalid(
            PROTOCOL_ERROR_CODES.invalidMessage,
            `control_response: ${problem}`,
            readRequestId(value),
            true,
          )
        : { kind: 'control_response', envelope: obj as ControlResponseEnvelope };
    }
    case 'control_cancel_request': {
      const problem = checkCancelEnvelope(obj);
      return problem
        ? invalid(PROTOCOL_ERROR_CODES.invalidMessage, `control_cancel_request: ${problem}`, undefined)
        : { kind: 'control_cancel', requestId: obj['request_id'] as string };
    }
    default:
      if (typeof type === 'string' && IGNORED_TYPES.has(type)) return { kind: 'ignore' };
      return invalid(
        PROTOCOL_ERROR_CODES.invalidMessage,
        typeof type === 'string'
          ? `unknown message type "${type.slice(0, 64)}"`
          : 'message has no string "type"',
        readRequestId(value),
      );
  }
}

/** Classifies a line that exceeded the size limit from the prefix the decoder kept. */
export function classifyOversizedLine(prefix: string, length: number, limit: number): HostLine {
  const claimed = /"type"\s*:\s*"control_response"/.test(prefix);
  return invalid(
    PROTOCOL_ERROR_CODES.oversizedLine,
    `line of ${length} characters exceeds the limit of ${limit}`,
    sniffRequestId(prefix),
    claimed,
  );
}
