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

  it('allow-always keeps a session rule (the second call is not asked); reject-always denies without asking', async () => {
    const script = [
      { tool_calls: [{ id: 't1', name: 'write_file', arguments: { path: 'a.txt', content: '1' } }] },
      { tool_calls: [{ id: 't2', name: 'write_file', arguments: { path: 'b.txt', content: '2' } }] },
      { tool_calls: [{ id: 't3', name: 'shell', arguments: { command: 'touch shell-ran.txt' } }] },
      { tool_calls: [{ id: 't4', name: 'shell', arguments: { command: 'touch shell-ran.txt' } }] },
      { text: 'ok' },
    ];
    const { dir } = workspace(script);
    const model = writeScript(dir, 'model.json', script);
    const e = await editor(dir, { TWINLINE_MODEL: model }, (req) =>
      req.toolCall.title === 'write_file' ? 'allow_always' : 'reject_always',
    );
    const { sessionId } = await e.agent.request('session/new', { cwd: dir, mcpServers: [] });
    await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    expect(e.asked.map((a) => a.toolCall.toolCallId)).toEqual(['t1', 't3']);
    expect(fileText(dir, 'a.txt')).toBe('1');
    expect(fileText(dir, 'b.txt')).toBe('2');
    expect(fileText(dir, 'shell-ran.txt')).toBeUndefined();
    expect(toolUpdates(e, 't4').at(-1)).toMatchObject({ status: 'failed' });
  });

  it('a cancel mid-turn ends the prompt as cancelled and withdraws the open permission request', async () => {
    const script = [
      { tool_calls: [{ id: 'slow', name: 'write_file', arguments: { path: 'never.txt', content: 'x' } }] },
      { text: 'unreachable' },
    ];
    const { dir } = workspace(script);
    const model = writeScript(dir, 'model.json', script);
    const e = await editor(dir, { TWINLINE_MODEL: model }, () => 'never');
    const { sessionId } = await e.agent.request('session/new', { cwd: dir, mcpServers: [] });
    const prompt = e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    while (e.asked.length === 0) await new Promise((r) => setTimeout(r, 10));
    await e.agent.notify('session/cancel', { sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
    expect(fileText(dir, 'never.txt')).toBeUndefined();
    // the session stays usable after a cancel
    const again = await e.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'again' }],
    });
    expect(again.stopReason).toBe('end_turn');
  });

  it('a call the gateway denies is reported failed and never asked: plan mode, and the engine state', async () => {
    const script = [
      {
        tool_calls: [
          { id: 'state', name: 'write_file', arguments: { path: '.twinline/settings.json', content: '{}' } },
        ],
      },
      { tool_calls: [{ id: 'plan', name: 'write_file', arguments: { path: 'p.txt', content: 'x' } }] },
      { text: 'end' },
    ];
    const { dir } = workspace(script);
    const model = writeScript(dir, 'model.json', script);
    const e = await editor(dir, { TWINLINE_MODEL: model }, () => 'allow_once');
    const { sessionId } = await e.agent.request('session/new', { cwd: dir, mcpServers: [] });
    await e.agent.request('session/set_mode', { sessionId, modeId: 'plan' });
    await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    expect(e.asked).toEqual([]);
    expect(toolUpdates(e, 'state').at(-1)).toMatchObject({ status: 'failed' });
    expect(toolUpdates(e, 'plan').at(-1)).toMatchObject({ status: 'failed' });
    expect(fileText(dir, 'p.txt')).toBeUndefined();
    expect(fileText(dir, '.twinline/settings.json')).toBeUndefined();
    expect(e.updates.some((n) => n.update.sessionUpdate === 'current_mode_update')).toBe(true);
  });

  it('set_mode to a privileged mode is refused in an untrusted folder and accepted in a trusted one', async () => {
    const script = [
      { tool_calls: [{ id: 'w', name: 'write_file', arguments: { path: 'w.txt', content: 'x' } }] },
      { text: 'ok' },
    ];
    const { dir } = workspace(script);
    const model = writeScript(dir, 'model.json', script);
    const untrusted = await editor(dir, { TWINLINE_MODEL: model, ...untrustedHome() }, () => 'reject_once');
    const a = await untrusted.agent.request('session/new', { cwd: dir, mcpServers: [] });
    await expect(
      untrusted.agent.request('session/set_mode', { sessionId: a.sessionId, modeId: 'yolo' }),
    ).rejects.toThrow(/trust/i);
    const trusted = await editor(dir, { TWINLINE_MODEL: model, ...trustedHome(dir) }, () => 'reject_once');
    const b = await trusted.agent.request('session/new', { cwd: dir, mcpServers: [] });
    await trusted.agent.request('session/set_mode', { sessionId: b.sessionId, modeId: 'auto-edit' });
    await trusted.agent.request('session/prompt', {
      sessionId: b.sessionId,
      prompt: [{ type: 'text', text: 'go' }],
    });
    expect(trusted.asked).toEqual([]);
    expect(fileText(dir, 'w.txt')).toBe('x');
  });

  it('session/load in a new process replays the conversation and continues it; a bad id is refused', async () => {
    const script = [{ text: 'first answer' }, { text: 'second answer' }];
    const { dir } = workspace(script);
    const model = writeScript(dir, 'model.json', script);
    const one = await editor(dir, { TWINLINE_MODEL: model }, () => 'reject_once');
    const { sessionId } = await one.agent.request('session/new', { cwd: dir, mcpServers: [] });
    await one.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello there' }] });
    await one.close();
    editors.splice(editors.indexOf(one), 1);
    const later = writeScript(dir, 'later.json', [{ text: 'continued' }]);
    const two = await editor(dir, { TWINLINE_MODEL: later }, () => 'reject_once');
    await two.agent.request('session/load', { sessionId, cwd: dir, mcpServers: [] });
    const replayed = two.updates.map((n) => n.update);
    expect(replayed[0]).toMatchObject({
      sessionUpdate: 'user_message_chunk',
      content: { text: 'hello there' },
    });
    expect(agentText(two)).toContain('first answer');
    const r = await two.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'more' }],
    });
    expect(r.stopReason).toBe('end_turn');
    expect(agentText(two)).toContain('continued');
    await expect(
      two.agent.request('session/load', { sessionId: '../../etc/passwd', cwd: dir, mcpServers: [] }),
    ).rejects.toThrow();
  });
});
