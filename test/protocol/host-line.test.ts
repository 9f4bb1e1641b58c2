import { describe, expect, it } from 'vitest';
import { classifyHostLine, classifyOversizedLine, sniffRequestId } from '../../src/protocol/index.js';

describe('classifyHostLine', () => {
  const cases: [string, string, Record<string, unknown>][] = [
    [
      'claude string prompt',
      '{"type":"user","session_id":"","message":{"role":"user","content":[{"type":"text","text":"hi"}]},"parent_tool_use_id":null}',
      { kind: 'user' },
    ],
    [
      'qwen string prompt',
      '{"type":"user","session_id":"u","message":{"role":"user","content":"hi"},"parent_tool_use_id":null}',
      { kind: 'user' },
    ],
    [
      'initialize',
      '{"request_id":"a1","type":"control_request","request":{"subtype":"initialize","systemPrompt":[""]}}',
      { kind: 'control_request' },
    ],
    [
      'success response',
      '{"type":"control_response","response":{"subtype":"success","request_id":"x","response":{"behavior":"allow"}}}',
      { kind: 'control_response' },
    ],
    [
      'error response with object error (qwen)',
      '{"type":"control_response","response":{"subtype":"error","request_id":"x","error":{"message":"no"}}}',
      { kind: 'control_response' },
    ],
    [
      'cancel',
      '{"type":"control_cancel_request","request_id":"x"}',
      { kind: 'control_cancel', requestId: 'x' },
    ],
    ['keep_alive', '{"type":"keep_alive"}', { kind: 'ignore' }],
    [
      'truncated JSON with id',
      '{"type":"control_request","request_id":"r9","request":{"sub',
      { kind: 'invalid', requestId: 'r9' },
    ],
    [
      'truncated JSON without id',
      '{"type":"user","mess',
      { kind: 'invalid', code: 'protocol.malformed_line' },
    ],
    ['array', '[1,2]', { kind: 'invalid', code: 'protocol.invalid_message' }],
    ['no type', '{"a":1}', { kind: 'invalid' }],
    ['unknown type', '{"type":"bogus"}', { kind: 'invalid' }],
    [
      'user with numeric content',
      '{"type":"user","message":{"role":"user","content":5}}',
      { kind: 'invalid' },
    ],
    [
      'request without subtype keeps its id',
      '{"type":"control_request","request_id":"r2","request":{}}',
      { kind: 'invalid', requestId: 'r2' },
    ],
    [
      'response with bad subtype claims a response',
      '{"type":"control_response","response":{"subtype":"maybe","request_id":"e1"}}',
      { kind: 'invalid', requestId: 'e1', claimedResponse: true },
    ],
    [
      'numeric request id',
      '{"type":"control_request","request_id":7,"request":{"subtype":"interrupt"}}',
      { kind: 'invalid' },
    ],
  ];
  it.each(cases)('%s', (_name, line, expected) => {
    expect(classifyHostLine(line)).toMatchObject(expected);
  });

  it('reads a request id from an oversized prefix', () => {
    expect(
      classifyOversizedLine('{"type":"control_request","request_id":"big-1","request":{"x":"', 99, 10),
    ).toMatchObject({
      kind: 'invalid',
      code: 'protocol.oversized_line',
      requestId: 'big-1',
    });
  });

  it('sniffs escaped ids and refuses empty ones', () => {
    expect(sniffRequestId('{"request_id":"a\\"b"')).toBe('a"b');
    expect(sniffRequestId('{"request_id":""}')).toBeUndefined();
  });
});
