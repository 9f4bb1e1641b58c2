import { PROTOCOL_ERROR_CODES } from './errors.js';
import {
  ControlCancelEnvelope,
  ControlRequestEnvelope,
  ControlResponseEnvelope,
  UserMessage,
} from './schemas.js';

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

function firstIssue(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
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
  const type = (value as Record<string, unknown>)['type'];
  switch (type) {
    case 'user': {
      const parsed = UserMessage.safeParse(value);
      return parsed.success
        ? { kind: 'user', message: parsed.data }
        : invalid(
            PROTOCOL_ERROR_CODES.invalidMessage,
            `user message: ${firstIssue(parsed.error)}`,
            undefined,
          );
    }
    case 'control_request': {
      const parsed = ControlRequestEnvelope.safeParse(value);
      return parsed.success
        ? { kind: 'control_request', envelope: parsed.data }
        : invalid(
            PROTOCOL_ERROR_CODES.invalidMessage,
            `control_request: ${firstIssue(parsed.error)}`,
            readRequestId(value),
          );
    }
    case 'control_response': {
      const parsed = ControlResponseEnvelope.safeParse(value);
      return parsed.success
        ? { kind: 'control_response', envelope: parsed.data }
        : invalid(
            PROTOCOL_ERROR_CODES.invalidMessage,
            `control_response: ${firstIssue(parsed.error)}`,
            readRequestId(value),
            true,
          );
    }
    case 'control_cancel_request': {
      const parsed = ControlCancelEnvelope.safeParse(value);
      return parsed.success
        ? { kind: 'control_cancel', requestId: parsed.data.request_id }
        : invalid(
            PROTOCOL_ERROR_CODES.invalidMessage,
            `control_cancel_request: ${firstIssue(parsed.error)}`,
            undefined,
          );
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
