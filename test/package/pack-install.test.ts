import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripWatermark } from '../../src/gates/index.js';
import { assertBuilt } from '../protocol/sdk-harness.js';

/**
 * The published package as an adopter gets it: `npm pack`, the tarball installed into a fresh
 * project outside this checkout, and the README's examples, `serve` with one request, `route` and
 * `check` run from there. Offline from the local npm cache (CI has no registry to spare): a
 * dependency the cache lacks fails the install loudly (ENOTCACHED), it is never skipped.
 */
const ROOT = resolve('.');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
  overrides?: Record<string, unknown>;
};

let work: string;
let project: string;
const timings: Record<string, number> = {};

function run(cmd: string, args: readonly string[], cwd: string, input?: string) {
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    input: input ?? '',
    timeout: 180_000,
    env: adopterEnv(),
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The environment of a new adopter: none of this checkout's Twinline settings. */
function adopterEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_update_notifier: 'false' };
  for (const k of Object.keys(env)) if (k.startsWith('TWINLINE_') || k.startsWith('OPENAI_')) delete env[k];
  return env;
}

/**
 * A lock file for the adopter's project: the package as its one dependency and, below it, exactly
 * the production tree this checkout's lock resolves (what `npm install twinline` resolves today).
 * With it `npm ci` installs from cached tarballs and never needs the registry's metadata.
 */
function adopterLock(tgz: string): unknown {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, Record<string, unknown> & { dev?: boolean }>;
  };
  const root = lock.packages['']!;
  const spec = `file:${tgz}`;
  const packages: Record<string, unknown> = {
    '': { name: 'adopter', version: '1.0.0', dependencies: { twinline: spec } },
    'node_modules/twinline': {
      version: PKG.version,
      resolved: spec,
      integrity: `sha512-${createHash('sha512').update(readFileSync(tgz)).digest('base64')}`,
      license: root.license,
      dependencies: root.dependencies,
      bin: root.bin,
      engines: root.engines,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) if (path && !entry.dev) packages[path] = entry;
  return { name: 'adopter', version: '1.0.0', lockfileVersion: 3, requires: true, packages };
}

/** The fenced block of the README that starts with `first`. */
function readmeBlock(first: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)]
    .map((m) => m[1]!)
    .find((b) => b.startsWith(first));
  if (!block) throw new Error(`README has no ts block starting with ${first}`);
  return block;
}

beforeAll(() => {
  assertBuilt();
  work = mkdtempSync(join(tmpdir(), 'twinline-pack-'));
  // `npm test` built dist/ (pretest); packing must not rebuild it under the running suite
  let t = performance.now();
  const packed = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT);
  expect(packed.code, packed.stderr).toBe(0);
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  const tgz = join(work, filename);
  timings.packMs = performance.now() - t;

  project = join(work, 'adopter');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify(
      {
        name: 'adopter',
        version: '1.0.0',
        private: true,
        type: 'module',
        dependencies: { twinline: `file:${tgz}` },
        // npm applies only the root project's overrides: the README tells adopters to copy this
        ...(PKG.overrides ? { overrides: PKG.overrides } : {}),
      },
      null,
      2,
    ),
  );
  writeFileSync(join(project, 'package-lock.json'), JSON.stringify(adopterLock(tgz), null, 2));
  t = performance.now();
  // Install scripts stay off: the only one is better-sqlite3's native build (compiling SQLite is
  // about a minute of CPU); its addon is the one `npm ci` built for this checkout, same version.
  const installed = run('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], project);
  if (installed.code !== 0) {
    throw new Error(
      `installing the packed tarball offline failed (a dependency missing from the npm cache?):\n${installed.stderr}`,
    );
  }
  const addon = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
  const version = (dir: string) =>
    (
      JSON.parse(readFileSync(join(dir, 'node_modules/better-sqlite3/package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
  expect(version(project)).toBe(version(ROOT));
  mkdirSync(join(project, 'node_modules/better-sqlite3/build/Release'), { recursive: true });
  copyFileSync(join(ROOT, addon), join(project, addon));
  timings.installMs = performance.now() - t;
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
  // one line for the report: how long packing and installing took on this machine
  if (timings.installMs)
    process.stdout.write(
      `pack-install: pack ${Math.round(timings.packMs!)} ms, install ${Math.round(timings.installMs)} ms${timings.serveMs ? `, cold serve ${Math.round(timings.serveMs)} ms` : ''}\n`,
    );
});

describe('the packed package, installed into a fresh project', () => {
  it('installs only what it ships: no TypeScript sources needed, the compiled office tools and the router weights are in', () => {
    const pkg = join(project, 'node_modules/twinline');
    expect(existsSync(join(pkg, 'dist/examples/office/tools/index.js'))).toBe(true);
    expect(existsSync(join(pkg, 'src/router/model/router-weights.json'))).toBe(true);
    expect(existsSync(join(pkg, 'node_modules'))).toBe(false);
    // no loader for TypeScript is installed: the package must not need one
    for (const dev of ['tsx', 'esbuild', 'typescript', 'vitest'])
      expect(existsSync(join(project, 'node_modules', dev))).toBe(false);
  });

  it('no installed package needs a newer Node than the package declares', () => {
    const semver = createRequire(join(project, 'package.json'))('semver') as {
      minVersion(range: string): { version: string } | null;
      satisfies(v: string, range: string): boolean;
    };
    const floor = semver.minVersion(PKG.engines.node)!.version;
    const tooNew: string[] = [];
    let seen = 0;
    const visit = (dir: string) => {
      for (const name of readdirSync(dir)) {
        if (name.startsWith('.')) continue;
        const path = join(dir, name);
        if (name.startsWith('@')) {
          visit(path);
          continue;
        }
        const manifest = join(path, 'package.json');
        if (!existsSync(manifest)) continue;
        const p = JSON.parse(readFileSync(manifest, 'utf8')) as {
          name: string;
          version: string;
          engines?: { node?: string };
        };
        seen++;
        if (p.engines?.node && !semver.satisfies(floor, p.engines.node))
          tooNew.push(`${p.name}@${p.version} (${p.engines.node})`);
        if (existsSync(join(path, 'node_modules'))) visit(join(path, 'node_modules'));
      }
    };
    visit(join(project, 'node_modules'));
    expect(seen).toBeGreaterThan(100);
    expect(tooNew).toEqual([]);
  });

  it("runs the README's library example", () => {
    writeFileSync(
      join(project, 'library.mjs'),
      readmeBlock("import { createPlatform, loadConfig } from 'twinline';"),
    );
    const r = run(process.execPath, ['library.mjs'], project);
    expect(r.code, r.stderr).toBe(0);
    // its data folder is the working directory's .twinline (the built-in sample's default)
    expect(existsSync(join(project, '.twinline/twinline.sqlite'))).toBe(true);
  });

  it("runs the README's SDK example against the installed engine", () => {
    writeFileSync(
      join(project, 'turns.json'),
      JSON.stringify([
        {
          tool_calls: [{ id: 't1', name: 'write_file', arguments: { path: 'NOTES.md', content: 'tidy\n' } }],
        },
        { text: 'Tidied.' },
      ]),
    );
    writeFileSync(join(project, 'sdk.mjs'), readmeBlock("import { TwinlineAgent } from 'twinline/sdk';"));
    const r = run(process.execPath, ['sdk.mjs'], project);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')).toEqual(expect.arrayContaining(['system', 'assistant', 'result']));
    // the write was asked of the example's permission handler, which allowed it
    expect(readFileSync(join(project, 'NOTES.md'), 'utf8')).toBe('tidy\n');
  });

  it('twinline route and check work from the project', () => {
    const route = run('npx', ['twinline', 'route', '--json', '查一下这周的日程安排'], project);
    expect(route.code, route.stderr).toBe(0);
    expect(JSON.parse(route.stdout)).toMatchObject({ target: 'quick', rule: 'quick.zh.lookup' });
    const check = run(
      'npx',
      [
        'twinline',
        'check',
        '--user',
        'erin',
        '--tool',
        'salary_analysis',
        '--args',
        '{"departments":["all"]}',
        '--declare',
        'salary_analysis',
        '--exit-code',
      ],
      project,
    );
    expect(check.stdout).toMatch(/acme\/erin -> salary_analysis: REVIEW/);
    expect(check.code).toBe(3);
  });

  it('twinline serve answers a request, then stops cleanly on SIGTERM', async () => {
    const started = performance.now();
    // the installed bin itself (npx would stand between the signal and the server)
    const proc: ChildProcess = spawn(join(project, 'node_modules/.bin/twinline'), ['serve', '--port', '0'], {
      cwd: project,
      env: adopterEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stderr!.on('data', (c: Buffer) => {
      err += c;
    });
    const url = await new Promise<string>((ok, fail) => {
      proc.stdout!.on('data', (c: Buffer) => {
        out += c;
        const m = /API: +(http:\/\/\S+)\/v1/.exec(out);
        if (m) ok(m[1]!);
      });
      proc.on('exit', (code) => fail(new Error(`serve exited ${code}: ${err}`)));
    });
    timings.serveMs = performance.now() - started;
    try {
      expect(out).toMatch(/Data: +\S+\.twinline/);
      const res = await fetch(`${url}/v1/requests`, {
        method: 'POST',
        headers: { authorization: 'Bearer tw-acme-alice-demo', 'content-type': 'application/json' },
        body: JSON.stringify({ query: '查一下这周的日程安排' }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        outcome: string;
        route: { target: string };
        ticketId?: string;
        text: string;
      };
      expect(body).toMatchObject({ outcome: 'degraded', route: { target: 'quick' } });
      expect(stripWatermark(body.text)).toMatch(/degraded mode/);
    } finally {
      const exited = new Promise<number | null>((ok) => proc.on('exit', (code) => ok(code)));
      proc.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 120_000);
});
