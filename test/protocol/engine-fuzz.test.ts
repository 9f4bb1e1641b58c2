import { spawn } from 'node:child_process';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../../src/protocol/agent-runtime.js';
import {
  type EngineRuntimeFactory,
  encodeLine,
  parseStreamJsonArgs,
  StreamJsonEngine,
} from '../../src/protocol/index.js';
import { assertBuilt, engineEnv, fileText, TWINLINE_BIN, workspace } from './sdk-harness.js';

const MAX_LINE = 4096;

const validUser = {
  type: 'user',
  session_id: '',
  message: { role: 'user', content: 'write it' },
  parent_tool_use_id: null,
};
const validRequest = (id: string) => ({
  type: 'control_request',
  request_id: id,
  request: { subtype: 'interrupt' },
});

/** Lines that must each be refused with exactly one error and never executed. */
const malformedLine: fc.Arbitrary<string> = fc.oneof(
  // truncated JSON of a message that would otherwise act
  fc
    .tuple(fc.constantFrom(JSON.stringify(validUser), JSON.stringify(validRequest('t1'))), fc.nat())
    .map(([s, n]) => s.slice(0, 1 + (n % (s.length - 1)))),
  // wrong types in otherwise well-formed messages
  fc.constantFrom(
    '{"type":"user","message":{"role":"user","content":42}}',
    '{"type":"user","message":{"role":"assistant","content":"x"}}',
    '{"type":"user","message":null}',
    '{"type":"control_request","request_id":5,"request":{"subtype":"interrupt"}}',
    '{"type":"control_request","request_id":"w1","request":"interrupt"}',
    '{"type":"control_request","request_id":"w2","request":{"subtype":"set_model","model":7}}',
    '{"type":"control_request","request_id":"w3","request":{"subtype":"set_permission_mode"}}',
    '{"type":"control_request","request_id":"w4","request":{"subtype":"seed_read_state","files":"a"}}',
    '{"type":"control_cancel_request"}',
    '{"type":"control_cancel_request","request_id":[]}',
    '[]',
    '42',
    '"user"',
    'null',
    '{}',
    '{"type":null}',
  ),
  // unknown message types and unknown request subtypes
  fc.string({ minLength: 1, maxLength: 20 }).map((t) => JSON.stringify({ type: `x_${t}`, request_id: 'u1' })),
  fc
    .tuple(fc.uuid(), fc.string({ minLength: 1, maxLength: 30 }))
    .map(([id, sub]) =>
      JSON.stringify({ type: 'control_request', request_id: id, request: { subtype: `zz_${sub}` } }),
    ),
  // huge strings, over the line limit
  fc.nat({ max: 3 }).map((n) =>
    JSON.stringify({
      ...validUser,
      message: { role: 'user', content: 'A'.repeat(MAX_LINE + 1 + n * 1000) },
    }),
  ),
  // random garbage that is not JSON
  fc.string({ minLength: 1, maxLength: 200 }).filter((s) => {
    if (s.trim() === '' || s.includes('\n')) return false;
    try {
      JSON.parse(s);
      return false;
    } catch {
      return true;
    }
  }),
);

interface Harness {
  engine: StreamJsonEngine;
  out: Record<string, unknown>[];
  runtimeCreated: () => number;
  turnsRun: () => number;
}

function harness(dir: string, model: string): Harness {
  const out: Record<string, unknown>[] = [];
  let created = 0;
  let runs = 0;
  const factory: EngineRuntimeFactory = async (cfg) => {
    created++;
    const rt = await createAgentRuntime(cfg);
    return {
      ...rt,
      run: (turn, emit) => {
        runs++;
        return rt.run(turn, emit);
      },
    };
  };
  const engine = new StreamJsonEngine({
    args: parseStreamJsonArgs([
      '--input-format=stream-json',
      `--model=${model}`,
      '--permission-prompt-tool=stdio',
    ]),
    cwd: dir,
    env: engineEnv(),
    write: (line) => {
      out.push(JSON.parse(line) as Record<string, unknown>);
    },
    log: () => undefined,
    createRuntime: factory,
    maxLineChars: MAX_LINE,
    version: 'test',
    onDone: () => undefined,
  });
  return { engine, out, runtimeCreated: () => created, turnsRun: () => runs };
}

function isError(m: Record<string, unknown>): boolean {
  if (m['type'] === 'system' && m['subtype'] === 'protocol_error') return true;
  const r = m['response'] as { subtype?: string } | undefined;
  return m['type'] === 'control_response' && r?.subtype === 'error';
}

describe('stream-json engine fuzz', () => {
  it('every malformed line gets exactly one error, nothing runs, the engine keeps going', async () => {
    const { dir, model } = workspace([
      { tool_calls: [{ id: 't', name: 'write_file', arguments: { path: 'pwned.txt', content: 'x' } }] },
    ]);
    const h = harness(dir, model);
    fc.assert(
      fc.property(
        fc.array(malformedLine, { minLength: 1, maxLength: 8 }),
        fc.nat({ max: 64 }),
        (lines, cut) => {
          const before = h.out.length;
          const wire = lines.map((l) => `${l}\n`).join('');
          // split the bytes anywhere: framing must not change the outcome
          const at = cut % (wire.length + 1);
          h.engine.feed(wire.slice(0, at));
          h.engine.feed(wire.slice(at));
          const produced = h.out.slice(before);
          expect(produced).toHaveLength(lines.length);
          expect(produced.every(isError)).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
    // duplicate ids: a second request with the same id is refused
    const dup = JSON.stringify({
      type: 'control_request',
      request_id: 'dup-1',
      request: { subtype: 'zz_nope' },
    });
    h.engine.feed(`${dup}\n${dup}\n`);
    const last = h.out.slice(-2).map((m) => (m['response'] as { error: string }).error);
    expect(last[0]).toMatch(/Unsupported/);
    expect(last[1]).toMatch(/Duplicate request_id/);
    expect(h.runtimeCreated()).toBe(0);
    expect(h.turnsRun()).toBe(0);
    expect(h.engine.queuedTurns).toBe(0);
    expect(fileText(dir, 'pwned.txt')).toBeUndefined();
    // still alive: a valid request after all that is answered
    h.engine.feed(
      `${JSON.stringify({ type: 'control_request', request_id: 'ok-1', request: { subtype: 'mcp_status' } })}\n`,
    );
    const ok = await waitFor(
      h.out,
      (m) => (m['response'] as { request_id?: string } | undefined)?.request_id === 'ok-1',
    );
    expect(ok).toMatchObject({ response: { subtype: 'success', response: { mcpServers: [] } } });
  });

  it('a garbled answer to a permission request denies that call', async () => {
    const { dir, model } = workspace([
      {
        tool_calls: [{ id: 'toolu_1', name: 'write_file', arguments: { path: 'garbled.txt', content: 'x' } }],
      },
      { text: 'end' },
    ]);
    const h = harness(dir, model);
    h.engine.feed(encodeLine(validUser));
    const request = await waitFor(h.out, (m) => m['type'] === 'control_request');
    h.engine.feed(
      `{"type":"control_response","response":{"subtype":"success","request_id":"${String(request['request_id'])}","response":{"behavior":"allow"\n`,
    );
    const result = await waitFor(h.out, (m) => m['type'] === 'result');
    expect(result).toMatchObject({ subtype: 'success', permission_denials: [{ tool_use_id: 'toolu_1' }] });
    expect(fileText(dir, 'garbled.txt')).toBeUndefined();
    h.engine.endInput();
  });
});

async function waitFor(
  out: Record<string, unknown>[],
  pred: (m: Record<string, unknown>) => boolean,
  timeoutMs = 20_000,
): Promise<Record<string, unknown>> {
  const start = Date.now();
  for (;;) {
    const hit = out.find(pred);
    if (hit) return hit;
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting for an engine message');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('stream-json process under malformed input', () => {
  beforeAll(assertBuilt);

  it('survives a burst of bad lines and an oversized line, then answers initialize and exits 0', async () => {
    const { dir, model } = workspace([{ text: 'hi' }]);
    const proc = spawn(
      process.execPath,
      [TWINLINE_BIN, '--input-format', 'stream-json', '--output-format', 'stream-json', `--model=${model}`],
      {
        cwd: dir,
        env: engineEnv({ TWINLINE_MAX_LINE_CHARS: '65536' }),
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', (c: string) => {
      stdout += c;
    });
    const bad = [
      '{"type":"user","mess',
      '{"type":"control_request","request_id":"b1","request":{"subtype":"bogus"}}',
      `{"type":"control_request","request_id":"big","request":{"subtype":"initialize","x":"${'y'.repeat(70_000)}"}}`,
      'not json at all',
      '\r',
    ];
    proc.stdin.write(bad.join('\r\n') + '\n');
    proc.stdin.write(
      `${JSON.stringify({ type: 'control_request', request_id: 'init', request: { subtype: 'initialize' } })}\n`,
    );
    proc.stdin.end();
    const code = await new Promise<number | null>((r) => proc.on('close', r));
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(code).toBe(0);
    expect(lines.filter(isError)).toHaveLength(4);
    expect(lines.find((m) => (m['response'] as { request_id?: string })?.request_id === 'big')).toMatchObject(
      {
        response: { subtype: 'error', error: expect.stringMatching(/exceeds the limit/) },
      },
    );
    expect(lines.at(-1)).toMatchObject({
      type: 'control_response',
      response: { subtype: 'success', request_id: 'init' },
    });
  });
});
