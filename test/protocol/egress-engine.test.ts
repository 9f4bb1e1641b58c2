import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type PermissionResult,
  query,
  type SDKMessage,
  type SDKUserMessage,
} from '@anthropic-ai/claude-agent-sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { stripWatermark } from '../../src/gates/index.js';
import {
  EGRESS_KEY,
  EXFIL_TEXT,
  expectNoExfil,
  expectNoRawPii,
  expectWatermark,
  LEAKY_TEXT,
  MOBILE,
  RESIDENT_ID,
} from '../support/hostile-answer.js';
import { assertBuilt, engineEnv, fileText, PromptFeed, TWINLINE_BIN, workspace } from './sdk-harness.js';

/**
 * Every kind of line the engine writes, and whether it can carry model or tool text. A kind the
 * engine starts writing without a line here fails the tests below.
 */
const ENGINE_MESSAGES: Readonly<Record<string, 'gated' | 'none'>> = {
  'system/init': 'none', // session, tools, model, mode
  'system/status': 'none', // the permission mode
  'system/protocol_error': 'none', // what was wrong with the host's own line
  assistant: 'gated', // text blocks (gated whole) and tool_use inputs (gated values)
  user: 'gated', // tool results (gated), the interrupt marker
  stream_event: 'gated', // content_block_delta text: the streaming gate's pieces
  result: 'gated', // the answer, error texts, permission denials' inputs
  control_request: 'gated', // can_use_tool: the input as the host may see it
  control_response: 'none', // answers to the host's requests
};

const kindOf = (m: Record<string, unknown>) =>
  m['type'] === 'system' ? `system/${String(m['subtype'])}` : String(m['type']);

/** A workspace whose file holds raw PII, and a model that reads it, writes a note, then steers it outside. */
function hostileWorkspace() {
  const ws = workspace({
    turns: [
      {
        text: LEAKY_TEXT,
        tool_calls: [
          { id: 'toolu_read', name: 'read_file', arguments: { path: 'customers.txt' } },
          {
            id: 'toolu_write',
            name: 'write_file',
            arguments: { path: 'note.txt', content: `call ${MOBILE}` },
          },
        ],
      },
      { text: EXFIL_TEXT },
    ],
  });
  writeFileSync(join(ws.dir, 'customers.txt'), `张伟 ${MOBILE} resident ID ${RESIDENT_ID}\n`);
  return ws;
}

/** Runs one prompt through the engine as a child process, allowing every call with its input echoed. */
async function runEngine(extraArgs: readonly string[]) {
  const { dir, model } = hostileWorkspace();
  const proc = spawn(
    process.execPath,
    [
      TWINLINE_BIN,
      '--input-format',
      'stream-json',
      '--output-format',
      'stream-json',
      `--model=${model}`,
      '--verbose',
      ...extraArgs,
    ],
    { cwd: dir, env: engineEnv({ TWINLINE_WATERMARK_KEY: EGRESS_KEY }), stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const lines: Record<string, unknown>[] = [];
  let raw = '';
  let pending = '';
  proc.stdout.setEncoding('utf8');
  const done = new Promise<number | null>((r) => proc.on('close', r));
  proc.stdout.on('data', (chunk: string) => {
    raw += chunk;
    pending += chunk;
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      const m = JSON.parse(pending.slice(0, nl)) as Record<string, unknown>;
      pending = pending.slice(nl + 1);
      lines.push(m);
      const req = m['request'] as { subtype?: string; input?: unknown } | undefined;
      if (m['type'] === 'control_request' && req?.subtype === 'can_use_tool') {
        // The host allows and echoes back what it was shown, as SDK callbacks do.
        proc.stdin.write(
          `${JSON.stringify({
            type: 'control_response',
            response: {
              subtype: 'success',
              request_id: m['request_id'],
              response: { behavior: 'allow', updatedInput: req.input },
            },
          })}\n`,
        );
      }
      if (m['type'] === 'result') proc.stdin.end();
    }
  });
  proc.stdin.write(
    `${JSON.stringify({ type: 'control_request', request_id: 'init', request: { subtype: 'initialize' } })}\n`,
  );
  proc.stdin.write(
    `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'Look up the customer.' } })}\n`,
  );
  expect(await done).toBe(0);
  return { dir, raw, lines };
}

function assistantTexts(lines: readonly Record<string, unknown>[]): string[] {
  return lines.flatMap((m) => {
    if (m['type'] !== 'assistant') return [];
    const content = (m['message'] as { content: { type: string; text?: string }[] }).content;
    return content.filter((b) => b.type === 'text').map((b) => b.text ?? '');
  });
}

function checkEngineRun(run: Awaited<ReturnType<typeof runEngine>>, where: string) {
  const { raw, lines, dir } = run;
  for (const m of lines)
    expect(ENGINE_MESSAGES[kindOf(m)], `${where}: unclassified ${kindOf(m)}`).toBeDefined();
  // No raw value in any byte the host was sent, the outside address included.
  expectNoRawPii(raw, where);
  expectNoExfil(raw, where);
  const sessionId = String(lines.find((m) => kindOf(m) === 'system/init')?.['session_id']);
  const texts = assistantTexts(lines);
  expect(texts.length).toBeGreaterThanOrEqual(2);
  for (const t of texts)
    expectWatermark(t, { tenant: 'local', session: sessionId, channel: 'stream-json' }, `${where} text`);
  expect(stripWatermark(texts[0]!)).toContain('张伟');
  expect(stripWatermark(texts.at(-1)!)).toMatch(/^The answer was withheld by the output gate/);
  // The host saw the write masked, echoed it back unchanged: the call ran as the model proposed it.
  const ask = lines.find(
    (m) => (m['request'] as { subtype?: string } | undefined)?.subtype === 'can_use_tool',
  );
  expect(JSON.stringify(ask)).not.toContain(MOBILE);
  expect(fileText(dir, 'note.txt')).toBe(`call ${MOBILE}`);
  // The turn stops at the block with an error result naming it; nothing of the steer follows.
  const result = lines.at(-1)!;
  expect(result['type']).toBe('result');
  expect(result['is_error']).toBe(true);
  expect(stripWatermark(JSON.stringify(result))).toContain('withheld by the output gate');
  expect(stripWatermark(raw)).not.toContain('[Request interrupted by user]');
  return lines;
}

describe('the stream-json engine sends the host only gated text', () => {
  beforeAll(assertBuilt);

  it('Claude dialect, complete messages', async () => {
    checkEngineRun(await runEngine(['--permission-prompt-tool=stdio']), 'claude');
  });

  it('Claude dialect with partial messages: every streamed delta is a gated, marked piece', async () => {
    const lines = checkEngineRun(
      await runEngine(['--permission-prompt-tool=stdio', '--include-partial-messages']),
      'claude partial',
    );
    const deltas = lines.flatMap((m) => {
      const e = m['event'] as { type?: string; delta?: { text?: string } } | undefined;
      return m['type'] === 'stream_event' && e?.type === 'content_block_delta' ? [e.delta?.text ?? ''] : [];
    });
    expect(deltas.length).toBeGreaterThan(0);
    for (const d of deltas) expectWatermark(d, { tenant: 'local', channel: 'stream-json' }, 'partial delta');
  });

  it('Qwen dialect', async () => {
    const lines = checkEngineRun(await runEngine(['--channel=SDK']), 'qwen');
    expect(stripWatermark(JSON.stringify(lines.at(-1)?.['error']))).toContain('withheld by the output gate');
  });

  it('through the real Claude Agent SDK', async () => {
    const { dir, model } = hostileWorkspace();
    const feed = new PromptFeed<SDKUserMessage>();
    feed.push({
      type: 'user',
      message: { role: 'user', content: 'Look up the customer.' },
      parent_tool_use_id: null,
      session_id: '',
    });
    const seenInputs: unknown[] = [];
    const q = query({
      prompt: feed,
      options: {
        pathToClaudeCodeExecutable: TWINLINE_BIN,
        cwd: dir,
        model,
        includePartialMessages: true,
        env: engineEnv({ TWINLINE_WATERMARK_KEY: EGRESS_KEY }),
        canUseTool: async (_tool, input): Promise<PermissionResult> => {
          seenInputs.push(input);
          return { behavior: 'allow', updatedInput: input };
        },
      },
    });
    const messages: SDKMessage[] = [];
    for await (const m of q) {
      messages.push(m);
      if (m.type === 'result') feed.end();
    }
    const bytes = JSON.stringify(messages) + JSON.stringify(seenInputs);
    expectNoRawPii(bytes, 'Claude Agent SDK');
    expectNoExfil(bytes, 'Claude Agent SDK');
    expect(fileText(dir, 'note.txt')).toBe(`call ${MOBILE}`);
    const texts = assistantTexts(messages as unknown as Record<string, unknown>[]);
    for (const t of texts) expectWatermark(t, { tenant: 'local', channel: 'stream-json' }, 'SDK text');
    expect(messages.at(-1)).toMatchObject({ type: 'result', is_error: true });
  });
});
