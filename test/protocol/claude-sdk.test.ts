import { join } from 'node:path';
import {
  type PermissionResult,
  query,
  type SDKMessage,
  type SDKUserMessage,
} from '@anthropic-ai/claude-agent-sdk';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
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
  return { type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null, session_id: '' };
}

async function collect(q: AsyncIterable<SDKMessage>): Promise<SDKMessage[]> {
  const out: SDKMessage[] = [];
  for await (const m of q) out.push(unmarked(m));
  return out;
}

describe('the real @anthropic-ai/claude-agent-sdk against bin/twinline.js', () => {
  beforeAll(assertBuilt);

  it('runs a scripted turn where canUseTool allows one call and denies another', async () => {
    const { dir, model } = workspace(allowOneDenyOneScript());
    const asked: { tool: string; id: string; input: unknown }[] = [];
    const q = query({
      prompt: 'Please write the files.',
      options: {
        pathToClaudeCodeExecutable: TWINLINE_BIN,
        cwd: dir,
        model,
        env: engineEnv(),
        canUseTool: async (tool, input, { toolUseID }): Promise<PermissionResult> => {
          asked.push({ tool, id: toolUseID, input });
          return input['path'] === 'allowed.txt'
            ? { behavior: 'allow', updatedInput: input }
            : { behavior: 'deny', message: 'not this one' };
        },
      },
    });
    const messages = await collect(q);
    const init = messages.find((m) => m.type === 'system' && m.subtype === 'init');
    expect(init).toMatchObject({ model, permissionMode: 'default', cwd: expect.any(String) });
    expect(asked.map((a) => a.id)).toEqual(['toolu_allowed', 'toolu_denied']);
    expect(fileText(dir, 'allowed.txt')).toBe('written');
    expect(fileText(dir, 'denied.txt')).toBeUndefined();
    const result = messages.at(-1);
    expect(result).toMatchObject({ type: 'result', subtype: 'success', result: 'Done.' });
    expect(result?.type === 'result' && result.permission_denials.map((d) => d.tool_use_id)).toEqual([
      'toolu_denied',
    ]);
    const toolResults = messages.flatMap((m) =>
      m.type === 'user' && Array.isArray(m.message.content) ? m.message.content : [],
    ) as { type: string; tool_use_id?: string; is_error?: boolean }[];
    expect(toolResults.find((b) => b.tool_use_id === 'toolu_denied')?.is_error).toBe(true);
    // the store opened lazily, and both attempts were audited before the engine exited
    const db = new Database(join(dir, '.twinline', 'twinline.sqlite'), { readonly: true });
    try {
      const rows = db.prepare('select tool, status from audit_records order by status').all();
      expect(rows).toEqual([
        { tool: 'write_file', status: 'denied' },
        { tool: 'write_file', status: 'executed' },
      ]);
    } finally {
      db.close();
    }
  });

  it('interrupt() ends the running turn with an error result and the session stays usable', async () => {
    const { dir, model } = workspace([{ text: 'slow', delay_ms: 20_000 }, { text: 'second answer' }]);
    const feed = new PromptFeed<SDKUserMessage>();
    const q = query({
      prompt: feed,
      options: { pathToClaudeCodeExecutable: TWINLINE_BIN, cwd: dir, model, env: engineEnv() },
    });
    feed.push(userMessage('take your time'));
    const seen: SDKMessage[] = [];
    for await (const m of q) {
      seen.push(unmarked(m));
      if (
        m.type === 'system' &&
        m.subtype === 'init' &&
        seen.filter((x) => x.type === 'result').length === 0
      ) {
        await q.interrupt();
      }
      if (m.type === 'result') {
        if (seen.filter((x) => x.type === 'result').length === 1) feed.push(userMessage('again'));
        else feed.end();
      }
    }
    const results = seen.filter((m) => m.type === 'result');
    expect(results[0]).toMatchObject({ subtype: 'error_during_execution', is_error: true });
    expect(
      results[0]?.type === 'result' && results[0].subtype !== 'success' && results[0].errors.length,
    ).toBeGreaterThan(0);
    expect(results[1]).toMatchObject({ subtype: 'success', result: 'second answer' });
  });

  it('setPermissionMode(acceptEdits) lets an edit run without asking; setModel() switches the script', async () => {
    const { dir, model } = workspace([{ text: 'first model' }]);
    const second = writeScript(dir, 'second.json', [
      {
        tool_calls: [{ id: 'toolu_w', name: 'write_file', arguments: { path: 'auto.txt', content: 'auto' } }],
      },
      { text: 'second model' },
    ]);
    const feed = new PromptFeed<SDKUserMessage>();
    let asked = 0;
    const q = query({
      prompt: feed,
      options: {
        pathToClaudeCodeExecutable: TWINLINE_BIN,
        cwd: dir,
        model,
        env: engineEnv(trustedHome(dir)),
        canUseTool: async () => {
          asked++;
          return { behavior: 'deny', message: 'should not be asked' };
        },
      },
    });
    feed.push(userMessage('one'));
    const seen: SDKMessage[] = [];
    for await (const m of q) {
      seen.push(unmarked(m));
      if (m.type === 'result' && seen.filter((x) => x.type === 'result').length === 1) {
        await q.setPermissionMode('acceptEdits');
        await q.setModel(second);
        feed.push(userMessage('two'));
      } else if (m.type === 'result') feed.end();
    }
    const inits = seen.filter((m) => m.type === 'system' && m.subtype === 'init');
    expect(inits[1]).toMatchObject({ permissionMode: 'acceptEdits', model: second });
    expect(seen.some((m) => m.type === 'system' && m.subtype === 'status')).toBe(true);
    expect(asked).toBe(0);
    expect(fileText(dir, 'auto.txt')).toBe('auto');
    expect(seen.filter((m) => m.type === 'result').at(-1)).toMatchObject({
      subtype: 'success',
      result: 'second model',
    });
  });

  it('finishes the queued turn when the host closes stdin right after its last prompt', async () => {
    const { dir, model } = workspace([{ text: 'answered after EOF', delay_ms: 300 }]);
    const feed = new PromptFeed<SDKUserMessage>();
    feed.push(userMessage('only prompt'));
    feed.end(); // no callbacks: the SDK closes stdin right after writing it
    const messages = await collect(
      query({
        prompt: feed,
        options: { pathToClaudeCodeExecutable: TWINLINE_BIN, cwd: dir, model, env: engineEnv() },
      }),
    );
    expect(messages.at(-1)).toMatchObject({
      type: 'result',
      subtype: 'success',
      result: 'answered after EOF',
    });
  });

  it('without --permission-prompt-tool the host is never asked and the edit is denied', async () => {
    const { dir, model } = workspace(allowOneDenyOneScript());
    const messages = await collect(
      query({
        prompt: 'go',
        options: { pathToClaudeCodeExecutable: TWINLINE_BIN, cwd: dir, model, env: engineEnv() },
      }),
    );
    expect(fileText(dir, 'allowed.txt')).toBeUndefined();
    expect(fileText(dir, 'denied.txt')).toBeUndefined();
    const result = messages.at(-1);
    expect(result?.type === 'result' && result.permission_denials).toHaveLength(2);
  });
});
