import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxGrant } from '../../../src/core/index.js';
import { engineStatePaths } from '../../../src/tools/index.js';
import {
  createShellTool,
  ProcessSandbox,
  type ShellResult,
  startEgressProxy,
} from '../../../src/tools/workspace/index.js';
import { bubblewrapArgs } from '../../../src/tools/workspace/sandbox/index.js';
import { sandboxUp } from '../../support/sandbox.js';
import { context, makeSandbox } from './workspace-fixture.js';

// Real bubblewrap, real child processes, a real loopback listener and a real SQLite file.
// Everything a command may write lives under `box.base`; markers outside the workspace go to
// `box.outside`, which must stay as the test made it.
const box = makeSandbox();
const SECRET = 'TOP-SECRET-7f3a9c';
let listener: TcpServer;
let listenerPort = 0;
let connections = 0;

const shell = createShellTool({ root: box.workspace, shell: { maxOutputBytes: 16 * 1024 } });
const run = (command: string, sandbox?: SandboxGrant, timeoutMs?: number): Promise<ShellResult> =>
  shell.execute(
    { command, ...(timeoutMs ? { timeoutMs } : {}) },
    { ...context(), ...(sandbox ? { sandbox } : {}) },
  ) as Promise<ShellResult>;

beforeAll(async () => {
  mkdirSync(box.workspace, { recursive: true });
  mkdirSync(box.outside, { recursive: true });
  writeFileSync(join(box.outside, 'secret.txt'), `${SECRET}\n`);
  writeFileSync(join(box.workspace, 'README.md'), '# readme\nword\n');
  mkdirSync(join(box.workspace, 'victim'));
  writeFileSync(join(box.workspace, 'victim', 'keep.txt'), 'keep');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: box.workspace, stdio: 'pipe' });
  git('init', '-q', '.');
  git('-c', 'user.email=t@t', '-c', 'user.name=t', 'add', '.');
  git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init');
  // The engine's audit DB where the engine puts it by default, with rows a command must not touch.
  mkdirSync(join(box.workspace, '.twinline'));
  const db = new Database(join(box.workspace, '.twinline', 'twinline.sqlite'));
  db.exec('create table audit_records (id text primary key, tool text)');
  db.prepare("insert into audit_records values ('a1', 'shell'), ('a2', 'read_file')").run();
  db.close();
  listener = createTcpServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
  listenerPort = (listener.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((r) => listener.close(r));
  box.remove();
});

function outsideIsUntouched(): void {
  expect(readdirSync(box.outside)).toEqual(['secret.txt']);
  expect(readdirSync(box.base).sort()).toEqual(['outside', 'workspace']);
}

function auditRows(): unknown[] {
  const db = new Database(join(box.workspace, '.twinline', 'twinline.sqlite'), { readonly: true });
  try {
    return db.prepare('select id, tool from audit_records order by id').all();
  } finally {
    db.close();
  }
}

const ATTACKS = (out: string) => [
  `touch ${out}/m1`,
  `sed -n '1e touch ${out}/m2' README.md`,
  `sed -n 'w ${out}/m3' README.md`,
  `git grep -O'touch ${out}/m4; true' word`,
  `LESSOPEN='|touch ${out}/m5; cat %s' less README.md`,
  `sort -o${out}/m6 README.md`,
  `git diff --no-index --output=${out}/m7 README.md README.md`,
  `cd ..; touch outside/m8 m9`,
  `setsid sh -c 'touch ${out}/m10' &`,
];

describe.skipIf(!sandboxUp)('read-only profile (what runs without an ask)', () => {
  it('sees the workspace and runs benign commands', async () => {
    const r = await run('cat README.md && git log -1 --format=%s');
    expect(r).toMatchObject({ exitCode: 0, stdout: '# readme\nword\ninit\n', sandbox: 'read-only' });
  });

  it('writes nothing, in the workspace or outside; a private tmpfs is writable and vanishes', async () => {
    for (const command of [
      ...ATTACKS(box.outside),
      'touch new.txt',
      'echo x >> README.md',
      'rm -rf victim',
    ]) {
      await run(command);
    }
    const tmp = await run('echo inside > /tmp/t && cat /tmp/t');
    expect(tmp.stdout).toBe('inside\n');
    outsideIsUntouched();
    expect(readFileSync(join(box.workspace, 'README.md'), 'utf8')).toBe('# readme\nword\n');
    expect(existsSync(join(box.workspace, 'new.txt'))).toBe(false);
    expect(existsSync(join(box.workspace, 'victim', 'keep.txt'))).toBe(true);
  });

  it('shows nothing outside the workspace and the system directories', async () => {
    const r = await run(
      `cat ${box.outside}/secret.txt; cat /etc/shadow; ls /root; cat ~/.bashrc; cat ~root/.profile; ls ${box.base}; git diff --no-index ${box.outside}/secret.txt README.md; diff --from-file=${box.outside}/secret.txt README.md; echo $HOME`,
    );
    expect(`${r.stdout}${r.stderr}`).not.toContain(SECRET);
    expect(r.stderr).toMatch(/shadow: No such file/);
    expect(r.stdout.trim().split('\n').pop()).toBe('/tmp');
  });

  it('its /etc has what programs need and nothing secret', async () => {
    const listing = (await run('ls /etc /etc/ssl')).stdout;
    expect(listing).toMatch(/\bld\.so\.cache\b/);
    expect(listing).toMatch(/\bpasswd\b/);
    expect(listing).not.toMatch(/\bshadow\b|\bsudoers\b|\bssh\b|\bprivate\b/);
    const who = await run('id; whoami; awk "BEGIN { print 1 + 1 }"');
    expect(who.stdout).toMatch(/^uid=\d+\(\w+\).*\n\w+\n2\n$/);
  });

  it('has no network: a loopback listener on the host receives nothing', async () => {
    const before = connections;
    const r = await run(
      `bash -c 'echo x > /dev/tcp/127.0.0.1/${listenerPort}'; node -e "require('net').connect(${listenerPort},'127.0.0.1').on('error',e=>{console.error(e.code);process.exit(3)})"`,
    );
    expect(r.stderr).toMatch(/ECONNREFUSED|Connection refused|Network is unreachable/);
    expect(connections).toBe(before);
  });

  it('the audit DB cannot be touched', async () => {
    await run(
      'printf x > .twinline/twinline.sqlite; rm -f .twinline/twinline.sqlite; sqlite3 .twinline/twinline.sqlite "delete from audit_records"',
    );
    expect(auditRows()).toEqual([
      { id: 'a1', tool: 'shell' },
      { id: 'a2', tool: 'read_file' },
    ]);
  });

  it('git config-driven programs are inert (fsmonitor from XDG config or -c)', async () => {
    mkdirSync(join(box.workspace, 'xdg', 'git'), { recursive: true });
    writeFileSync(
      join(box.workspace, 'xdg', 'git', 'config'),
      `[core]\n\tfsmonitor = "touch ${box.outside}/fs1"\n`,
    );
    await run(`XDG_CONFIG_HOME=${box.workspace}/xdg git status`);
    await run(`git -c core.fsmonitor='touch ${box.outside}/fs2' status`);
    outsideIsUntouched();
  });

  it('is killed with everything it started on timeout, setsid escapes included', async () => {
    const r = await run('setsid sleep 4242.5 & sleep 4242.6', undefined, 300);
    expect(r.timedOut).toBe(true);
    const deadline = Date.now() + 5000;
    const sleeping = () =>
      readdirSync('/proc')
        .filter((e) => /^\d+$/.test(e))
        .filter((e) => {
          try {
            return readFileSync(`/proc/${e}/cmdline`, 'utf8').includes('4242.');
          } catch {
            return false;
          }
        });
    while (sleeping().length > 0 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
    expect(sleeping()).toEqual([]);
  });
});

describe.skipIf(!sandboxUp)('workspace-write profile (an approved command)', () => {
  const write: SandboxGrant = { profile: 'workspace-write' };

  it('writes the workspace, never outside it', async () => {
    const r = await run('echo made > made.txt && cat made.txt', write);
    expect(r).toMatchObject({ exitCode: 0, stdout: 'made\n', sandbox: 'workspace-write' });
    for (const command of ATTACKS(box.outside)) await run(command, write);
    outsideIsUntouched();
  });

  it('keeps engine state and VCS control paths read-only, and in place', async () => {
    const config = readFileSync(join(box.workspace, '.git', 'config'), 'utf8');
    const r = await run(
      [
        `echo '[core] fsmonitor = "touch ${box.outside}/g1"' >> .git/config`,
        `printf '#!/bin/sh\\ntouch ${box.outside}/g2\\n' > .git/hooks/post-checkout`,
        'mv .git .git-moved',
        'mv .git/hooks .git/h2',
        'rm -rf .twinline',
        'mv .twinline t2',
        'printf x > .twinline/twinline.sqlite',
        'echo "{\\"permissions\\":{\\"allow\\":[\\"shell\\"]}}" > .twinline/settings.local.json',
        'sqlite3 .twinline/twinline.sqlite "delete from audit_records"',
        'git status --short',
      ].join('; '),
      write,
    );
    expect(r.stderr).toMatch(/Read-only file system|Device or resource busy/);
    expect(readFileSync(join(box.workspace, '.git', 'config'), 'utf8')).toBe(config);
    expect(existsSync(join(box.workspace, '.git', 'hooks', 'post-checkout'))).toBe(false);
    expect(existsSync(join(box.workspace, '.twinline', 'settings.local.json'))).toBe(false);
    expect(existsSync(join(box.workspace, '.git-moved'))).toBe(false);
    expect(auditRows()).toHaveLength(2);
    outsideIsUntouched();
  });

  it('still has no network', async () => {
    const before = connections;
    await run(`bash -c 'echo x > /dev/tcp/127.0.0.1/${listenerPort}'`, write);
    expect(connections).toBe(before);
  });

  it('refuses a workspace whose protected path is a symbolic link', async () => {
    const other = makeSandbox();
    mkdirSync(other.workspace, { recursive: true });
    mkdirSync(other.outside, { recursive: true });
    symlinkSync(other.outside, join(other.workspace, '.twinline'));
    const tool = createShellTool({ root: other.workspace });
    try {
      await expect(tool.execute({ command: 'true' }, { ...context(), sandbox: write })).rejects.toMatchObject(
        { code: 'workspace.sandbox-protected-link' },
      );
    } finally {
      other.remove();
    }
  });
});

describe.skipIf(!sandboxUp)('network profile: only through the allowlisting egress proxy', () => {
  let upstream: Server;
  let upstreamPort = 0;
  let upstreamHits = 0;
  beforeAll(async () => {
    upstream = createServer((_req, res) => {
      upstreamHits++;
      res.end('upstream says hi');
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
    upstreamPort = (upstream.address() as { port: number }).port;
  });
  afterAll(() => new Promise((r) => upstream.close(r)));

  const curl = (url: string) => `curl -s -m 10 -o - -w ' %{http_code}' ${url}`;
  const proxied = (url: string) =>
    `node -e "const n=require('net');const u=new URL('${url}');const s=n.connect(3128,'127.0.0.1',()=>s.write('GET '+u.href+' HTTP/1.1\\r\\nhost: '+u.host+'\\r\\nconnection: close\\r\\n\\r\\n'));s.pipe(process.stdout)"`;

  it('refuses loopback, link-local and private targets even when the domain is allowed, as web_fetch does', async () => {
    const grant: SandboxGrant = {
      profile: 'network',
      allowedDomains: ['localhost', '127.0.0.1', '169.254.169.254', '*'],
    };
    const before = connections;
    const r = await run(
      [
        proxied(`http://127.0.0.1:${listenerPort}/`),
        proxied(`http://localhost:${listenerPort}/`),
        proxied('http://169.254.169.254/latest/meta-data/'),
        proxied('http://10.0.0.1/'),
        `bash -c 'echo x > /dev/tcp/127.0.0.1/${listenerPort}'`,
      ].join('; '),
      grant,
    );
    expect(r.sandbox).toBe('network');
    expect(r.stdout.match(/403 Forbidden|HTTP\/1.1 403/g)?.length).toBe(4);
    expect(r.stdout).toMatch(/non-public address 127\.0\.0\.1/);
    expect(r.stdout).toMatch(/non-public address 169\.254\.169\.254/);
    expect(connections).toBe(before);
  });

  it('lets an allowed host through and refuses the rest (with private addresses allowed for this test)', async () => {
    const tool = createShellTool({ root: box.workspace, sandbox: { allowPrivateNetwork: true } });
    const r = (await tool.execute(
      {
        command: `${proxied(`http://localhost:${upstreamPort}/`)}; echo; ${proxied(`http://127.0.0.1:${upstreamPort}/`)}`,
      },
      { ...context(), sandbox: { profile: 'network', allowedDomains: ['localhost'], deniedDomains: [] } },
    )) as ShellResult;
    expect(r.stdout).toContain('upstream says hi');
    expect(r.stdout).toMatch(/127\.0\.0\.1 is not on the sandbox's network allowlist/);
    expect(upstreamHits).toBe(1);
    if (existsSync('/usr/bin/curl')) {
      const viaCurl = (await tool.execute(
        { command: curl(`http://localhost:${upstreamPort}/`) },
        { ...context(), sandbox: { profile: 'network', allowedDomains: ['localhost'] } },
      )) as ShellResult;
      expect(viaCurl.stdout).toBe('upstream says hi 200');
    }
  });

  it('a denied domain stays refused under a wildcard', async () => {
    const proxy = await startEgressProxy({
      allowedDomains: ['*'],
      deniedDomains: ['example.com'],
      allowPrivateNetwork: true,
    });
    try {
      const res = await new Promise<string>((resolve, reject) => {
        const s = connect(proxy.socketPath, () =>
          s.write('CONNECT api.example.com:443 HTTP/1.1\r\nhost: api.example.com:443\r\n\r\n'),
        );
        let got = '';
        s.on('data', (d: Buffer) => {
          got += d.toString();
        });
        s.on('end', () => resolve(got));
        s.on('error', reject);
      });
      expect(res).toMatch(/^HTTP\/1.1 403/);
      expect(proxy.events).toEqual([
        { host: 'api.example.com', port: 443, admitted: false, reason: 'api.example.com is denied' },
      ]);
    } finally {
      await proxy.close();
    }
  });
});

describe('fail closed when no sandbox can be created', () => {
  const missing = new ProcessSandbox({ bwrapPath: join(tmpdir(), 'no-such-dir', 'bwrap') });
  const tool = createShellTool({ root: box.workspace, sandbox: missing });

  it('says why, and refuses every run that was not approved to be unconfined', async () => {
    expect(missing.available()).toBe(false);
    expect(missing.describe()).toMatch(/not found.*asks before it runs unconfined/);
    for (const grant of [undefined, { profile: 'read-only' }, { profile: 'workspace-write' }] as const) {
      await expect(
        tool.execute(
          { command: `touch ${box.outside}/u1` },
          { ...context(), ...(grant ? { sandbox: grant } : {}) },
        ),
      ).rejects.toMatchObject({ code: 'workspace.sandbox-unavailable' });
    }
    outsideIsUntouched();
  });

  it('runs what a person approved to run unconfined, and reports it', async () => {
    let reported: string | undefined;
    const r = (await tool.execute(
      { command: 'echo unconfined' },
      { ...context(), sandbox: { profile: 'unconfined' }, reportSandbox: (p) => (reported = p) },
    )) as ShellResult;
    expect(r).toMatchObject({ stdout: 'unconfined\n', sandbox: 'unconfined' });
    expect(reported).toBe('unconfined');
  });

  it('a binary that exists but cannot create namespaces is no sandbox either', () => {
    const broken = new ProcessSandbox({ bwrapPath: '/bin/false' });
    expect(broken.status()).toMatchObject({
      available: false,
      reason: expect.stringMatching(/cannot create namespaces/),
    });
  });
});

describe('the bubblewrap command line (pure)', () => {
  const plan = {
    cwd: '/w',
    workspaceRoots: ['/w'],
    readRoots: ['/data'],
    system: [
      { path: '/usr', kind: 'bind' as const },
      { path: '/bin', kind: 'symlink' as const, target: 'usr/bin' },
    ],
    protectedPaths: ['/w/.twinline', '/w/.git/config'],
    pinnedDirs: ['/w/.git'],
    etcDir: '/private/etc',
    disableUserns: true,
  };

  it('read-only: every namespace, no capabilities, the workspace bound read-only', () => {
    const a = bubblewrapArgs({ ...plan, profile: 'read-only' });
    for (const flag of [
      '--unshare-all',
      '--unshare-user',
      '--disable-userns',
      '--die-with-parent',
      '--new-session',
    ]) {
      expect(a).toContain(flag);
    }
    expect(a.join(' ')).toContain('--cap-drop ALL');
    expect(a.join(' ')).toContain('--ro-bind /w /w');
    expect(a.join(' ')).not.toContain('--bind /w /w');
    expect(a.join(' ')).toContain('--symlink usr/bin /bin');
    expect(a.join(' ')).toContain('--ro-bind /data /data');
    expect(a.join(' ')).toContain('--tmpfs /tmp');
    expect(a.join(' ')).toContain('--ro-bind /private/etc /etc');
    expect(a.at(-1)).toBe('--');
  });

  it('workspace-write: the workspace writable, protected paths read-only after it, their directories pinned', () => {
    const a = bubblewrapArgs({ ...plan, profile: 'workspace-write' }).join(' ');
    expect(a).toMatch(
      /--bind \/w \/w .*--bind \/w\/\.git \/w\/\.git .*--ro-bind \/w\/\.twinline \/w\/\.twinline .*--ro-bind \/w\/\.git\/config/,
    );
  });
});

describe.skipIf(!sandboxUp)('secret engine state is hidden from every profile', () => {
  // A second workspace: its `.twinline/` holds settings, an agent, the audit DB and a session
  // record; its data folder (`data/`) holds the watermark key and tool data.
  const ws = join(box.base, 'stateful');
  const state = () => engineStatePaths({ projectRoot: ws, home: ws, folders: [join(ws, 'data')] });
  const stateShell = () =>
    createShellTool({ root: ws, shell: { maxOutputBytes: 16 * 1024 }, sandbox: { engineState: state() } });
  const runIn = (command: string, grant?: SandboxGrant) =>
    stateShell().execute(
      { command },
      { ...context(), ...(grant ? { sandbox: grant } : {}) },
    ) as Promise<ShellResult>;

  beforeAll(() => {
    mkdirSync(join(ws, '.twinline', 'agents'), { recursive: true });
    mkdirSync(join(ws, '.twinline', 'sessions'), { recursive: true });
    mkdirSync(join(ws, 'data'), { recursive: true });
    writeFileSync(join(ws, '.twinline', 'settings.json'), '{"permissions":{"deny":["Bash(rm:*)"]}}\n');
    writeFileSync(join(ws, '.twinline', 'agents', 'reviewer.md'), '# reviewer\n');
    writeFileSync(join(ws, '.twinline', 'twinline.sqlite'), `${SECRET} audit rows\n`);
    writeFileSync(join(ws, '.twinline', 'sessions', 's1.json'), `${SECRET} transcript\n`);
    writeFileSync(join(ws, 'data', 'watermark.key'), `${SECRET} key\n`);
    writeFileSync(join(ws, 'notes.txt'), 'project notes\n');
  });

  for (const grant of [undefined, { profile: 'workspace-write' } as const]) {
    const name = grant?.profile ?? 'read-only';
    it(`${name}: the audit DB cannot be read, the data folder and session records are empty; settings and agents stay readable`, async () => {
      const r = await runIn(
        [
          'cat .twinline/twinline.sqlite 2>/dev/null | wc -c',
          'ls -A data | wc -l',
          'ls -A .twinline/sessions | wc -l',
          'cat .twinline/settings.json .twinline/agents/reviewer.md notes.txt',
          `grep -rl ${SECRET} . 2>/dev/null | wc -l`,
        ].join('; '),
        grant,
      );
      expect(r.stdout).not.toContain(SECRET);
      expect(
        r.stdout
          .split('\n')
          .slice(0, 3)
          .map((l) => l.trim()),
      ).toEqual(['0', '0', '0']);
      expect(r.stdout).toContain('Bash(rm:*)');
      expect(r.stdout).toContain('# reviewer');
      expect(r.stdout).toContain('project notes');
      expect(r.stdout.trim().split('\n').at(-1)?.trim()).toBe('0');
    });
  }

  it('a link, a copy or a hard link made inside the sandbox reaches nothing', async () => {
    const r = await runIn(
      [
        'ln -s .twinline/twinline.sqlite via-link',
        'cat via-link 2>/dev/null | wc -c',
        'cp .twinline/twinline.sqlite copy.db 2>/dev/null; cat copy.db 2>/dev/null | wc -c',
        'ln data/watermark.key hard 2>/dev/null || echo no-hard-link',
        'echo planted > data/new.key 2>/dev/null || echo data-read-only',
        'echo x > .twinline/twinline.sqlite 2>/dev/null || echo db-read-only',
      ].join('; '),
      { profile: 'workspace-write' },
    );
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stdout).toContain('no-hard-link');
    expect(r.stdout).toContain('data-read-only');
    expect(r.stdout).toContain('db-read-only');
    expect(
      r.stdout
        .split('\n')
        .slice(0, 2)
        .map((l) => l.trim()),
    ).toEqual(['0', '0']);
    expect(readFileSync(join(ws, '.twinline', 'twinline.sqlite'), 'utf8')).toContain(SECRET);
    expect(existsSync(join(ws, 'data', 'new.key'))).toBe(false);
  });

  it('the plan covers folders with a read-only tmpfs and files with /dev/null, after the roots', () => {
    const a = bubblewrapArgs({
      profile: 'read-only',
      cwd: '/w',
      workspaceRoots: ['/w'],
      readRoots: [],
      system: [],
      protectedPaths: [],
      pinnedDirs: [],
      etcDir: '/e',
      disableUserns: false,
      hiddenPaths: [
        { path: '/w/data', kind: 'dir' },
        { path: '/w/.twinline/twinline.sqlite', kind: 'file' },
      ],
    }).join(' ');
    expect(a).toMatch(
      /--ro-bind \/w \/w .*--tmpfs \/w\/data --remount-ro \/w\/data --ro-bind \/dev\/null \/w\/\.twinline\/twinline\.sqlite/,
    );
  });
});
