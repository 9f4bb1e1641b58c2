import {
  createSdkMcpServer,
  type PermissionResult,
  query,
  type SDKMessage,
  type SDKUserMessage,
  tool,
} from '@qwen-code/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v3';
import {
  allowOneDenyOneScript,
  assertBuilt,
  engineEnv,
  fileText,
  PromptFeed,
  TWINLINE_BIN,
  trustedHome,
  unmarked,
  workspace,
  writeScript,
} from './sdk-harness.js';

function userMessage(text: string): SDKUserMessage {
  return { type: 'user', session_id: '', message: { role: 'user', content: text }, parent_tool_use_id: null };
}

function results(messages: SDKMessage[]): Extract<SDKMessage, { type: 'result' }>[] {
  return messages.filter((m): m is Extract<SDKMessage, { type: 'result' }> => m.type === 'result');
}

describe('the real @qwen-code/sdk against bin/twinline.js', () => {
  beforeAll(assertBuilt);

  it('runs a scripted turn where canUseTool allows one call and denies another, in the adopted session', async () => {
    const { dir, model } = workspace(allowOneDenyOneScript());
    const asked: string[] = [];
    const q = query({
      prompt: 'Please write the files.',
      options: {
        pathToQwenExecutable: TWINLINE_BIN,
        cwd: dir,
        model,
        env: engineEnv(),
        canUseTool: async (tool, input): Promise<PermissionResult> => {
          asked.push(`${tool}:${String(input['path'])}`);
          return input['path'] === 'allowed.txt'
            ? { behavior: 'allow', updatedInput: input }
            : { behavior: 'deny', message: 'not this one' };
        },
      },
    });
    const messages: SDKMessage[] = [];
    for await (const m of q) messages.push(unmarked(m));
    expect(asked).toEqual(['write_file:allowed.txt', 'write_file:denied.txt']);
    expect(fileText(dir, 'allowed.txt')).toBe('written');
    expect(fileText(dir, 'denied.txt')).toBeUndefined();
    const init = messages.find((m) => m.type === 'system' && m.subtype === 'init');
    expect(init).toMatchObject({ permission_mode: 'default', session_id: q.getSessionId() });
    expect(results(messages)[0]).toMatchObject({
      subtype: 'success',
      result: 'Done.',
      session_id: q.getSessionId(),
    });
  });

  it('interrupt(), setPermissionMode(auto-edit), setModel(), then an early stdin close denies the pending request', async () => {
    const { dir, model } = workspace([{ text: 'slow', delay_ms: 20_000 }]);
    const second = writeScript(dir, 'second.json', [
      {
        tool_calls: [
          { id: 'call_edit', name: 'write_file', arguments: { path: 'auto.txt', content: 'auto' } },
        ],
      },
      { text: 'edited' },
    ]);
    const third = writeScript(dir, 'third.json', [
      { tool_calls: [{ id: 'call_shell', name: 'shell', arguments: { command: 'touch shell-ran.txt' } }] },
      { text: 'after eof', delay_ms: 10 },
    ]);
    const feed = new PromptFeed<SDKUserMessage>();
    let asked = 0;
    const q = query({
      prompt: feed,
      options: {
        pathToQwenExecutable: TWINLINE_BIN,
        cwd: dir,
        model,
        env: engineEnv(trustedHome(dir)),
        canUseTool: async (_tool, input): Promise<PermissionResult> => {
          asked++;
          // Never answered before stdin closes: the engine must deny it, not hang.
          await new Promise((r) => setTimeout(r, 2000));
          return { behavior: 'allow', updatedInput: input };
        },
      },
    });
    feed.push(userMessage('take your time'));
    const seen: SDKMessage[] = [];
    let phase = 0;
    for await (const m of q) {
      seen.push(unmarked(m));
      if (m.type === 'system' && m.subtype === 'init' && phase === 0) {
        phase = 1;
        await q.interrupt();
      } else if (m.type === 'result' && phase === 1) {
        phase = 2;
        await q.setPermissionMode('auto-edit');
        await q.setModel(second);
        feed.push(userMessage('edit it'));
      } else if (m.type === 'result' && phase === 2) {
        phase = 3;
        await q.setPermissionMode('default');
        await q.setModel(third);
        feed.push(userMessage('run a command'));
        feed.end(); // the SDK closes stdin right after this prompt, while the turn runs
      }
    }
    const r = results(seen);
    expect(r[0]).toMatchObject({
      subtype: 'error_during_execution',
      is_error: true,
      error: { message: expect.any(String) },
    });
    expect(r[1]).toMatchObject({ subtype: 'success', result: 'edited' });
    expect(fileText(dir, 'auto.txt')).toBe('auto');
    expect(r[2]).toMatchObject({ subtype: 'success', result: 'after eof' });
    expect(fileText(dir, 'shell-ran.txt')).toBeUndefined();
    const shellResult = seen
      .flatMap((m) => (m.type === 'user' && Array.isArray(m.message.content) ? m.message.content : []))
      .find((b) => (b as { tool_use_id?: string }).tool_use_id === 'call_shell') as
      | { is_error?: boolean; content?: unknown }
      | undefined;
    expect(shellResult?.is_error).toBe(true);
    expect(asked).toBeLessThanOrEqual(1);
    const inits = seen.filter((m) => m.type === 'system' && m.subtype === 'init');
    expect(inits[1]).toMatchObject({ permission_mode: 'auto-edit', model: second });
  });

  it('host-defined tools (createSdkMcpServer + tool()) are listed over mcp_message, asked for, quoted', async () => {
    const { dir, model } = workspace([
      { tool_calls: [{ id: 'call_sum', name: 'mcp__calc__sum', arguments: { a: 2, b: 3 } }] },
      { text: 'Summed.' },
    ]);
    const calls: number[] = [];
    const calc = createSdkMcpServer({
      name: 'calc',
      version: '1.0.0',
      tools: [
        // zod 4's v3 build at run time; the SDK's own zod 3 typings would recurse without the cast
        // biome-ignore lint/suspicious/noExplicitAny: see above
        tool<any>('sum', 'Add two numbers', { a: z.number(), b: z.number() }, async (raw) => {
          const args = raw as { a: number; b: number };
          calls.push(args.a + args.b);
          return { content: [{ type: 'text', text: String(args.a + args.b) }] };
        }),
      ],
    });
    const asked: string[] = [];
    const q = query({
      prompt: 'add them',
      options: {
        pathToQwenExecutable: TWINLINE_BIN,
        cwd: dir,
        model,
        env: engineEnv(),
        mcpServers: { calc },
        canUseTool: async (t, input): Promise<PermissionResult> => {
          asked.push(t);
          return { behavior: 'allow', updatedInput: input };
        },
      },
    });
    const messages: SDKMessage[] = [];
    for await (const m of q) messages.push(unmarked(m));
    expect(asked).toEqual(['mcp__calc__sum']);
    expect(calls).toEqual([5]);
    const result = messages
      .flatMap((m) => (m.type === 'user' && Array.isArray(m.message.content) ? m.message.content : []))
      .find((b) => (b as { tool_use_id?: string }).tool_use_id === 'call_sum') as
      | { content?: string }
      | undefined;
    expect(String(result?.content)).toMatch(/third-party[\s\S]*5/);
    expect(results(messages)[0]).toMatchObject({ subtype: 'success', result: 'Summed.' });
  });
});
