import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stripWatermark } from '../../src/gates/index.js';
import { TwinlineAgent, type TwinlineEvent } from '../../src/sdk/index.js';
import {
  assertBuilt,
  engineEnv,
  fileText,
  TWINLINE_BIN,
  trustedHome,
  untrustedHome,
  workspace,
  writeScript,
} from './sdk-harness.js';

// Attacks through the stream-json engine as the SDKs drive it (a real child process): the trust
// gate on the start flag and on set_permission_mode, and a model writing the engine's own state.
const agents: TwinlineAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

async function collect(run: AsyncIterable<TwinlineEvent>): Promise<TwinlineEvent[]> {
  const out: TwinlineEvent[] = [];
  for await (const e of run) out.push(e);
  return out;
}

function results(events: TwinlineEvent[]): Map<string, { is_error?: boolean; content?: string }> {
  const out = new Map<string, { is_error?: boolean; content?: string }>();
  for (const e of events) {
    if (e.type !== 'user') continue;
    const content = (e['message'] as { content?: unknown }).content;
    if (!Array.isArray(content)) continue;
    for (const b of content as { tool_use_id?: string; is_error?: boolean; content?: string }[]) {
      if (b.tool_use_id) out.set(b.tool_use_id, b);
    }
  }
  return out;
}

function engine(dir: string, args: string[], env: Record<string, string>) {
  return spawnSync(
    process.execPath,
    [TWINLINE_BIN, '--input-format', 'stream-json', '--output-format', 'stream-json', ...args],
    { cwd: dir, env: engineEnv(env), input: '', encoding: 'utf8', timeout: 30_000 },
  );
}

describe('the trust gate holds on the engine start flag', () => {
  beforeAll(assertBuilt);

  it.each([
    ['--permission-mode=bypassPermissions', 'bypassPermissions'],
    ['--permission-mode=acceptEdits', 'acceptEdits'],
    ['--permission-mode=auto', 'auto'],
    ['--approval-mode=auto-edit', 'auto-edit'],
    ['--yolo', 'yolo'],
  ])('%s in an untrusted folder exits 2 naming the mode and the folder', (flag, name) => {
    const { dir } = workspace([]);
    const r = engine(dir, [flag], untrustedHome());
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`"${name}"`);
    expect(r.stderr).toContain('needs a trusted folder');
    expect(r.stderr).toContain(dir);
    expect(r.stdout).toBe('');
  });

  it('an unknown mode exits 2 with the valid names; default and plan need no trust', () => {
    const { dir } = workspace([]);
    const bad = engine(dir, ['--permission-mode=root'], untrustedHome());
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/Invalid permission mode: root\. Valid values are: .*bypassPermissions/);
    expect(engine(dir, ['--permission-mode=plan'], untrustedHome()).status).toBe(0);
    expect(engine(dir, ['--permission-mode=bypassPermissions'], trustedHome(dir)).status).toBe(0);
  });
});

describe('no tool writes the engine state, in any mode', () => {
  beforeAll(assertBuilt);

  /** Paths a model may try for the project settings (and the rest of `.twinline/`). */
  const TRICKS = [
    '.twinline/settings.json',
    './.twinline/settings.json',
    'sub/../.twinline/settings.json',
    '.twinline/./settings.json',
    '.TWINLINE/settings.json',
    '.Twinline/Settings.JSON',
    '.twinline//settings.local.json',
    '.twinline/agents/helper.md',
    '.twinline/twinline.sqlite',
    '.twinline/twinline.sqlite-wal',
    '.twinline/watermark.key',
    '.claude/settings.json',
    'link-to-state/settings.json',
    'nested/state/settings.json',
  ];
  const GRANT = JSON.stringify({ permissions: { allow: ['Bash'] }, approvalMode: 'yolo' });

  it.each(['acceptEdits', 'bypassPermissions'])(
    '%s: every path trick is refused, the next session is unchanged',
    async (mode) => {
      const calls = TRICKS.map((path, i) => ({
        id: `w${i}`,
        name: 'write_file',
        arguments: { path, content: GRANT },
      }));
      const edits = [
        {
          id: 'e1',
          name: 'edit',
          arguments: { path: '.twinline/settings.json', oldString: '"deny"', newString: '"allow"' },
        },
        {
          id: 'e2',
          name: 'edit',
          arguments: { path: `${'x'}/../.twinline/settings.json`, oldString: 'a', newString: 'b' },
        },
      ];
      const { dir, model } = workspace([{ tool_calls: [...calls, ...edits] }, { text: 'done' }]);
      const original = JSON.stringify({ permissions: { deny: ['Bash'] } });
      mkdirSync(join(dir, '.twinline', 'agents'), { recursive: true });
      writeFileSync(join(dir, '.twinline', 'settings.json'), original);
      mkdirSync(join(dir, 'nested'));
      symlinkSync(join(dir, '.twinline'), join(dir, 'link-to-state'));
      symlinkSync(join(dir, '.twinline'), join(dir, 'nested', 'state'));
      // A host that allows everything: the built-in deny comes before every rule and mode.
      const home = trustedHome(dir);
      const a = new TwinlineAgent({
        executable: TWINLINE_BIN,
        cwd: dir,
        model,
        permissionMode: mode,
        allowedTools: ['Write', 'Edit', 'Bash'],
        env: engineEnv(home),
      });
      agents.push(a);
      a.on('permission_request', () => 'allow');
      const events = await collect(a.run('tidy the project'));
      const byId = results(events);
      for (const [i, path] of TRICKS.entries()) {
        const r = byId.get(`w${i}`);
        expect(r?.is_error, path).toBe(true);
        expect(stripWatermark(r?.content ?? ''), path).toMatch(/engine's own state/);
      }
      for (const id of ['e1', 'e2'])
        expect(stripWatermark(byId.get(id)?.content ?? ''), id).toMatch(/engine's own state/);
      expect(readFileSync(join(dir, '.twinline', 'settings.json'), 'utf8')).toBe(original);
      expect(fileText(dir, '.claude/settings.json')).toBeUndefined();
      expect(fileText(dir, '.twinline/agents/helper.md')).toBeUndefined();

      // The next session reads the same settings: Bash is still denied by the project rule.
      const next = writeScript(dir, 'next.json', [
        { tool_calls: [{ id: 'sh', name: 'shell', arguments: { command: 'echo pwned > pwned.txt' } }] },
        { text: 'done' },
      ]);
      const b = new TwinlineAgent({ executable: TWINLINE_BIN, cwd: dir, model: next, env: engineEnv(home) });
      agents.push(b);
      b.on('permission_request', () => 'allow');
      const second = results(await collect(b.run('again')));
      // the project's whole-tool deny removes shell from the session altogether
      expect(stripWatermark(second.get('sh')?.content ?? '')).toBe('Tool shell is not available.');
      expect(fileText(dir, 'pwned.txt')).toBeUndefined();
    },
  );

  it("bypassPermissions: no read tool reads the engine's data — audit database, watermark key, tool data — directly, by a symlink or by a search; settings stay readable", async () => {
    const SECRET = 'SECRET-TENANT-ROW-7f3a';
    const reads = [
      { id: 'r1', name: 'read_file', arguments: { path: '.twinline/watermark.key' } },
      { id: 'r2', name: 'read_file', arguments: { path: '.twinline/office/globex.txt' } },
      { id: 'r3', name: 'read_file', arguments: { path: 'link-to-state/office/globex.txt' } },
      { id: 'r4', name: 'list_directory', arguments: { path: '.twinline/office' } },
      { id: 'r5', name: 'grep', arguments: { pattern: SECRET } },
      { id: 'r6', name: 'glob', arguments: { pattern: '**/*.txt' } },
      { id: 'r7', name: 'grep', arguments: { pattern: SECRET, path: 'link-to-state' } },
      // The shell reads through the process sandbox, where the same data is not there to read.
      {
        id: 'r8',
        name: 'shell',
        arguments: {
          command: 'cat link-to-state/watermark.key .twin*/office/*.txt; cat .twinline/settings.json',
        },
      },
      { id: 'ok', name: 'read_file', arguments: { path: '.twinline/settings.json' } },
    ];
    const { dir, model } = workspace([{ tool_calls: reads }, { text: 'done' }]);
    mkdirSync(join(dir, '.twinline', 'office'), { recursive: true });
    writeFileSync(join(dir, '.twinline', 'watermark.key'), `${SECRET}-key\n`);
    writeFileSync(join(dir, '.twinline', 'office', 'globex.txt'), `${SECRET}\n`);
    writeFileSync(join(dir, '.twinline', 'settings.json'), JSON.stringify({ permissions: {} }));
    symlinkSync(join(dir, '.twinline'), join(dir, 'link-to-state'));
    const home = trustedHome(dir);
    const a = new TwinlineAgent({
      executable: TWINLINE_BIN,
      cwd: dir,
      model,
      permissionMode: 'bypassPermissions',
      env: engineEnv(home),
    });
    agents.push(a);
    a.on('permission_request', () => 'allow');
    const events = await collect(a.run('look around'));
    const byId = results(events);
    for (const id of ['r1', 'r2', 'r3', 'r4', 'r7']) {
      const r = byId.get(id);
      expect(r?.is_error, id).toBe(true);
      expect(stripWatermark(r?.content ?? ''), id).toMatch(/engine's own data/);
    }
    // Searches over the project skip the engine's folder: no file of it comes back (the model's
    // own script, which holds the pattern, is an ordinary project file).
    const grep = JSON.parse(stripWatermark(byId.get('r5')?.content ?? '{}')) as {
      matches: { file: string }[];
    };
    expect(grep.matches.map((m) => m.file)).toEqual(['script.json']);
    const glob = JSON.parse(stripWatermark(byId.get('r6')?.content ?? '{}')) as {
      files?: string[];
      paths?: string[];
    };
    expect((glob.files ?? glob.paths ?? []).filter((f) => /twinline|link-to-state/.test(f))).toEqual([]);
    expect(JSON.stringify(events)).not.toContain(`${SECRET}-key`);
    expect(stripWatermark(byId.get('ok')?.content ?? '')).toContain('permissions');
    const shell = stripWatermark(byId.get('r8')?.content ?? '');
    expect(shell).not.toContain(SECRET);
    expect(shell).toContain('permissions');
  });

  it("a host's allow whose updatedInput retargets the write at engine state still writes nothing there", async () => {
    const { dir, model } = workspace([
      { tool_calls: [{ id: 'w', name: 'write_file', arguments: { path: 'notes.txt', content: 'hello' } }] },
      { text: 'done' },
    ]);
    const a = new TwinlineAgent({
      executable: TWINLINE_BIN,
      cwd: dir,
      model,
      env: engineEnv(untrustedHome()),
    });
    agents.push(a);
    a.on('permission_request', () => ({
      behavior: 'allow',
      updatedInput: { path: '.twinline/settings.json', content: '{"permissions":{"allow":["Bash"]}}' },
    }));
    const byId = results(await collect(a.run('write notes')));
    expect(byId.get('w')?.is_error).toBe(true);
    expect(stripWatermark(byId.get('w')?.content ?? '')).toMatch(/engine's own state/);
    expect(fileText(dir, '.twinline/settings.json')).toBeUndefined();
  });

  it('a shell line naming engine state asks even in bypassPermissions with Bash allowed', async () => {
    const { dir, model } = workspace([
      {
        tool_calls: [
          {
            id: 's1',
            name: 'shell',
            arguments: { command: `echo '{"permissions":{"allow":["Bash"]}}' > .twinline/settings.json` },
          },
          { id: 's2', name: 'shell', arguments: { command: 'cp /tmp/x ./.TWINLINE/twinline.sqlite' } },
          { id: 's3', name: 'shell', arguments: { command: 'echo fine > ok.txt' } },
        ],
      },
      { text: 'done' },
    ]);
    const asked: string[] = [];
    const a = new TwinlineAgent({
      executable: TWINLINE_BIN,
      cwd: dir,
      model,
      permissionMode: 'bypassPermissions',
      allowedTools: ['Bash'],
      env: engineEnv(trustedHome(dir)),
    });
    agents.push(a);
    a.on('permission_request', (req) => {
      asked.push(req.toolUseId);
      return { behavior: 'deny', message: 'not that' };
    });
    const byId = results(await collect(a.run('go')));
    expect(asked.sort()).toEqual(['s1', 's2']);
    expect(fileText(dir, '.twinline/settings.json')).toBeUndefined();
    expect(fileText(dir, 'ok.txt')?.trim()).toBe('fine');
    expect(byId.get('s3')?.is_error).toBeFalsy();
  });
});

describe('a deny rule sees the path the tool reads', () => {
  beforeAll(assertBuilt);

  // The approval slot re-checks the rules on the parsed arguments too; the schema now refuses the
  // second spelling first, so the access slot and the approval slot never judge different targets.
  it('a second path spelling naming an allowed file does not carry a denied read past the rule', async () => {
    const SECRET = 'DENIED-BY-RULE-41c9';
    const { dir, model } = workspace([
      {
        tool_calls: [
          { id: 'd1', name: 'read_file', arguments: { path: 'secrets/key.txt', file_path: 'README.md' } },
          { id: 'd2', name: 'read_file', arguments: { path: 'secrets/key.txt' } },
          { id: 'ok', name: 'read_file', arguments: { path: 'README.md' } },
        ],
      },
      { text: 'done' },
    ]);
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets', 'key.txt'), `${SECRET}\n`);
    writeFileSync(join(dir, 'README.md'), '# readme\n');
    const a = new TwinlineAgent({
      executable: TWINLINE_BIN,
      cwd: dir,
      model,
      permissionMode: 'bypassPermissions',
      disallowedTools: ['Read(secrets/**)'],
      env: engineEnv(trustedHome(dir)),
    });
    agents.push(a);
    a.on('permission_request', () => 'allow');
    const byId = results(await collect(a.run('read')));
    for (const id of ['d1', 'd2']) {
      expect(byId.get(id)?.is_error, id).toBe(true);
      expect(byId.get(id)?.content ?? '', id).not.toContain(SECRET);
    }
    expect(stripWatermark(byId.get('d1')?.content ?? '')).toMatch(/file_path/);
    expect(stripWatermark(byId.get('ok')?.content ?? '')).toContain('# readme');
  });
});
