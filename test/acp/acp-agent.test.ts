import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  engineEnv,
  fileText,
  TWINLINE_BIN,
  trustedHome,
  unmarked,
  untrustedHome,
  workspace,
  writeScript,
} from '../protocol/sdk-harness.js';

type Answer = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always' | 'never';

interface Editor {
  readonly proc: ChildProcessWithoutNullStreams;
  readonly agent: acp.ClientContext;
  readonly updates: acp.SessionNotification[];
  readonly asked: acp.RequestPermissionRequest[];
  close(): Promise<number | null>;
}

const editors: Editor[] = [];

/** Spawns `twinline acp` as an editor would and connects the SDK's client side to it. */
async function editor(
  cwd: string,
  env: Record<string, string>,
  answer: (req: acp.RequestPermissionRequest) => Answer,
): Promise<Editor> {
  const proc = spawn(process.execPath, [TWINLINE_BIN, 'acp'], {
    cwd,
    env: engineEnv(env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr.setEncoding('utf8');
  proc.stderr.on('data', (c: string) => {
    stderr += c;
  });
  const exited = new Promise<number | null>((r) => proc.on('close', r));
  const updates: acp.SessionNotification[] = [];
  const asked: acp.RequestPermissionRequest[] = [];
  const client = acp
    .client({ name: 'test-editor' })
    .onNotification('session/update', ({ params }) => {
      updates.push(unmarked(params));
    })
    .onRequest('session/request_permission', async ({ params, signal }) => {
      asked.push(unmarked(params));
      const a = answer(params);
      if (a === 'never') {
        await new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true }));
        return { outcome: { outcome: 'cancelled' } };
      }
      return { outcome: { outcome: 'selected', optionId: a } };
    });
  const stream = acp.ndJsonStream(
    Writable.toWeb(proc.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(proc.stdout) as unknown as ReadableStream<Uint8Array>,
  );
  const connection = client.connect(stream);
  const e: Editor = {
    proc,
    agent: connection.agent,
    updates,
    asked,
    close: async () => {
      connection.close();
      proc.stdin.end();
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
      const code = await exited;
      clearTimeout(timer);
      if (code !== 0) throw new Error(`twinline acp exited ${code}: ${stderr}`);
      return code;
    },
  };
  editors.push(e);
  await e.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  return e;
}

function toolUpdates(e: Editor, id: string): acp.SessionUpdate[] {
  return e.updates
    .map((n) => n.update)
    .filter(
      (u) =>
        (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') && u.toolCallId === id,
    );
}

function agentText(e: Editor): string {
  return e.updates
    .map((n) => n.update)
    .map((u) =>
      u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? u.content.text : '',
    )
    .join('');
}

describe('twinline acp driven by the real @agentclientprotocol/sdk client', () => {
  beforeAll(assertBuilt);
  afterEach(async () => {
    await Promise.all(editors.splice(0).map((e) => e.close().catch(() => undefined)));
  });

  it('streams a turn; a permission prompt answered allow runs the edit, answered reject does not', async () => {
    const script = [
      {
        text: 'Writing two files.',
        tool_calls: [
          { id: 'toolu_yes', name: 'write_file', arguments: { path: 'yes.txt', content: 'written' } },
          { id: 'toolu_no', name: 'write_file', arguments: { path: 'no.txt', content: 'must not exist' } },
        ],
      },
      { text: 'Done.' },
    ];
    const { dir } = workspace(script);
    const model = writeScript(dir, 'model.json', script);
    const e = await editor(dir, { TWINLINE_MODEL: model }, (req) =>
      (req.toolCall.rawInput as { path?: string }).path === 'yes.txt' ? 'allow_once' : 'reject_once',
    );
    const session = await e.agent.request('session/new', { cwd: dir, mcpServers: [] });
    expect(session.modes?.currentModeId).toBe('default');
    const r = await e.agent.request('session/prompt', {
      sessionId: session.sessionId,
      prompt: [{ type: 'text', text: 'write the files' }],
    });
    expect(r.stopReason).toBe('end_turn');
    expect(e.asked.map((a) => a.toolCall.toolCallId)).toEqual(['toolu_yes', 'toolu_no']);
    expect(e.asked[0]?.options.map((o) => o.kind)).toEqual([
      'allow_once',
      'allow_always',
      'reject_once',
      'reject_always',
    ]);
    expect(fileText(dir, 'yes.txt')).toBe('written');
    expect(fileText(dir, 'no.txt')).toBeUndefined();
    expect(toolUpdates(e, 'toolu_yes').map((u) => ('status' in u ? u.status : undefined))).toEqual([
      'pending',
      'in_progress',
      'completed',
    ]);
    expect(toolUpdates(e, 'toolu_yes')[0]).toMatchObject({ kind: 'edit', title: 'write_file' });
    expect(toolUpdates(e, 'toolu_no').at(-1)).toMatchObject({ status: 'failed' });
    expect(agentText(e)).toContain('Done.');
  });
});
