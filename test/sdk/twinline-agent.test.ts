import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TwinlineAgent, type TwinlineEvent } from '../../src/sdk/index.js';
import {
  allowOneDenyOneScript,
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

const agents: TwinlineAgent[] = [];
function agent(options: ConstructorParameters<typeof TwinlineAgent>[0]): TwinlineAgent {
  const a = new TwinlineAgent({ executable: TWINLINE_BIN, env: engineEnv(), ...options });
  agents.push(a);
  return a;
}

async function collect(run: AsyncIterable<TwinlineEvent>): Promise<TwinlineEvent[]> {
  const out: TwinlineEvent[] = [];
  for await (const e of run) out.push(unmarked(e));
  return out;
}

function toolResult(
  events: TwinlineEvent[],
  id: string,
): { is_error?: boolean; content?: string } | undefined {
  for (const e of events) {
    if (e.type !== 'user') continue;
    const content = (e['message'] as { content?: unknown }).content;
    if (!Array.isArray(content)) continue;
    const hit = content.find((b: { tool_use_id?: string }) => b.tool_use_id === id);
    if (hit) return hit as { is_error?: boolean; content?: string };
  }
  return undefined;
}

describe('TwinlineAgent (twinline/sdk)', () => {
  beforeAll(assertBuilt);
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((a) => a.close()));
  });

  it('runs a prompt; the permission handler allows one call and denies the other', async () => {
    const { dir, model } = workspace(allowOneDenyOneScript());
    const a = agent({ cwd: dir, model });
    const asked: string[] = [];
    a.on('permission_request', async (req) => {
      asked.push(`${req.toolName}:${req.toolUseId}`);
      expect(req.reason).toBeTruthy();
      return (req.input as { path: string }).path === 'allowed.txt'
        ? 'allow'
        : { behavior: 'deny', message: 'no' };
    });
    const events = await collect(a.run('write the files'));
    expect(asked).toEqual(['write_file:toolu_allowed', 'write_file:toolu_denied']);
    expect(fileText(dir, 'allowed.txt')).toBe('written');
    expect(fileText(dir, 'denied.txt')).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'Done.' });
    expect(await a.close()).toBe(0);
  });

  it('a handler that never answers gets a timeout: the call is denied and the engine carries on', async () => {
    const { dir, model } = workspace(allowOneDenyOneScript());
    const a = agent({ cwd: dir, model, permissionTimeoutMs: 300 });
    let withdrawn = 0;
    a.on(
      'permission_request',
      (req) =>
        new Promise(() => {
          req.signal.addEventListener('abort', () => withdrawn++);
        }),
    );
    const events = await collect(a.run('write the files'));
    expect(events.filter((e) => e.type === 'notice' && e.code === 'permission_timeout')).toHaveLength(2);
    expect(withdrawn).toBe(2);
    expect(fileText(dir, 'allowed.txt')).toBeUndefined();
    expect(toolResult(events, 'toolu_allowed')?.is_error).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'result', subtype: 'success' });
  });

  it('interrupt(), setModel(), setPermissionMode() and seedReadState() steer a live session', async () => {
    const { dir, model } = workspace([{ text: 'slow', delay_ms: 20_000 }]);
    writeFileSync(join(dir, 'seeded.txt'), 'on disk');
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'seeded.txt'), old, old);
    const second = writeScript(dir, 'second.json', [
      {
        tool_calls: [
          { id: 'toolu_read', name: 'read_file', arguments: { path: 'seeded.txt' } },
          { id: 'toolu_write', name: 'write_file', arguments: { path: 'yolo.txt', content: 'no prompt' } },
        ],
      },
      { text: 'steered' },
    ]);
    const a = agent({ cwd: dir, model, env: engineEnv(trustedHome(dir)) });
    let asked = 0;
    a.on('permission_request', () => {
      asked++;
      return 'deny';
    });
    const first: TwinlineEvent[] = [];
    for await (const e of a.run('slow one')) {
      first.push(e);
      if (e.type === 'system' && e.subtype === 'init') await a.interrupt();
    }
    expect(first.at(-1)).toMatchObject({ type: 'result', subtype: 'error_during_execution', is_error: true });

    expect(await a.setModel(second)).toBe(second);
    expect(await a.setPermissionMode('yolo')).toBe('yolo');
    expect(await a.seedReadState([{ path: 'seeded.txt', content: 'from the host', mtime: Date.now() }])).toBe(
      1,
    );
    const events = await collect(a.run('steered'));
    expect(events.find((e) => e.type === 'system' && e.subtype === 'init')).toMatchObject({
      model: second,
      permissionMode: 'yolo',
    });
    expect(toolResult(events, 'toolu_read')?.content).toContain('from the host');
    expect(fileText(dir, 'yolo.txt')).toBe('no prompt');
    expect(asked).toBe(0);
    expect(events.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'steered' });
  });

  it('setModel() before the first run applies to that run (the runtime may still be loading)', async () => {
    const { dir, model } = workspace([{ text: 'from the first model' }]);
    const other = writeScript(dir, 'other.json', [{ text: 'from the other model' }]);
    const a = agent({ cwd: dir, model });
    expect(await a.setModel(other)).toBe(other);
    const events = await collect(a.run('which model?'));
    expect(events.find((e) => e.type === 'system' && e.subtype === 'init')).toMatchObject({ model: other });
    expect(events.at(-1)).toMatchObject({ type: 'result', result: 'from the other model' });
  });

  it('rejects an unknown permission mode with the valid names', async () => {
    const { dir, model } = workspace([{ text: 'x' }]);
    const a = agent({ cwd: dir, model });
    await expect(a.setPermissionMode('root')).rejects.toThrow(/Invalid permission mode: root/);
  });

  it('the trust gate holds on the SDK: setPermissionMode and the permissionMode option in an untrusted folder', async () => {
    const { dir, model } = workspace([
      { tool_calls: [{ id: 't', name: 'write_file', arguments: { path: 'pwned.txt', content: 'x' } }] },
      { text: 'done' },
    ]);
    const env = engineEnv(untrustedHome());
    const a = agent({ cwd: dir, model, env });
    for (const mode of ['bypassPermissions', 'yolo', 'acceptEdits', 'auto-edit', 'auto']) {
      const err = await a.setPermissionMode(mode).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, mode).toMatchObject({ code: 'protocol.trust_gate' });
      expect(String((err as Error).message)).toContain(`"${mode}"`);
      expect(String((err as Error).message)).toContain(dir);
    }
    // the engine kept its mode: the write asks the (absent) handler, which denies
    const events = await collect(a.run('write it'));
    expect(events.find((e) => e.type === 'system' && e.subtype === 'init')).toMatchObject({
      permissionMode: 'default',
    });
    expect(fileText(dir, 'pwned.txt')).toBeUndefined();
    expect(await a.setPermissionMode('plan')).toBe('plan');

    const b = agent({ cwd: dir, model, env, permissionMode: 'bypassPermissions' });
    await expect(collect(b.run('write it'))).rejects.toThrow(/bypassPermissions.*needs a trusted folder/);
    expect(fileText(dir, 'pwned.txt')).toBeUndefined();
  });

  it('a run fails with a clear error when the engine cannot start', async () => {
    const { dir } = workspace([]);
    const a = agent({ cwd: dir, executable: join(dir, 'missing.js') });
    await expect(collect(a.run('hello'))).rejects.toThrow(/engine exited/);
  });
});

describe('TwinlineAgent: run parameters and the pre_tool_use hook', () => {
  beforeAll(assertBuilt);
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((a) => a.close()));
  });

  it('setVariable narrows the session (a tool list within the grant) and refuses what would widen it', async () => {
    const { dir, model } = workspace(allowOneDenyOneScript());
    const a = agent({ cwd: dir, model });
    a.on('permission_request', () => 'allow');
    expect(await a.setVariable('max_turns', 5)).toBe(5);
    await expect(a.setVariable('max_turns', 500)).rejects.toThrow(/at most/);
    await expect(a.setVariable('temperature', 1)).rejects.toThrow(/unknown variable.*known: max_turns/);
    await expect(a.setVariable('allowed_tools', ['no_such_tool'])).rejects.toThrow(/not granted/);
    expect(await a.setVariable('disallowed_tools', ['write_file'])).toEqual(['write_file']);
    const events = await collect(a.run('write the files'));
    expect(fileText(dir, 'allowed.txt')).toBeUndefined();
    expect(toolResult(events, 'toolu_allowed')?.is_error).toBe(true);
  });

  it("agent.on('pre_tool_use') can deny or ask, never loosen; the permission handler still decides what it lets through", async () => {
    const { dir, model } = workspace(allowOneDenyOneScript());
    const a = agent({ cwd: dir, model });
    const seen: string[] = [];
    const asked: string[] = [];
    a.on('pre_tool_use', (e) => {
      seen.push(`${e.toolName}:${String((e.input as { path: string }).path)}`);
      return (e.input as { path: string }).path === 'denied.txt'
        ? { decision: 'deny', reason: 'hook says no' }
        : 'allow';
    });
    a.on('permission_request', (req) => {
      asked.push(req.toolUseId);
      return 'allow';
    });
    const events = await collect(a.run('write the files'));
    expect(seen).toEqual(['write_file:allowed.txt', 'write_file:denied.txt']);
    expect(asked).toEqual(['toolu_allowed']);
    expect(fileText(dir, 'allowed.txt')).toBe('written');
    expect(fileText(dir, 'denied.txt')).toBeUndefined();
    expect(toolResult(events, 'toolu_denied')?.content).toContain('hook says no');
  });
});
