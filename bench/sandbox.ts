/**
 * Process sandbox benchmark: the latency a sandbox adds to a shell command. In one run, with the
 * two interleaved call by call, `true` and `git status` (a small repository) run unsandboxed (the
 * same process-group runner the shell tool uses) and through the shell tool under `read-only`,
 * `workspace-write` and `network` (which also starts the egress proxy and the bridge). Prints
 * p50/p99 per variant and the added p50/p99; target: at most 15 ms added at p50.
 *
 * `TWINLINE_BENCH_SRT=<dir>` (a folder where `@anthropic-ai/sandbox-runtime` is installed) adds
 * the same commands wrapped by it, for the comparison in docs/sandbox.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxGrant } from '../src/core/index.js';
import { createShellTool, ProcessSandbox, runInProcessGroup } from '../src/tools/workspace/index.js';

const ROUNDS = Number(process.env['BENCH_SANDBOX_ROUNDS'] ?? 150);
const ws = realpathSync(mkdtempSync(join(tmpdir(), 'twinline-bench-sandbox-')));
for (let i = 0; i < 50; i++) {
  mkdirSync(join(ws, `d${i % 5}`), { recursive: true });
  writeFileSync(join(ws, `d${i % 5}`, `f${i}.txt`), `line ${i}\n`.repeat(20));
}
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=b@b', '-c', 'user.name=b', ...args], { cwd: ws, stdio: 'pipe' });
git('init', '-q', '.');
git('add', '.');
git('commit', '-qm', 'bench');

const sandbox = new ProcessSandbox();
const probeStart = performance.now();
const status = sandbox.status();
const probeMs = performance.now() - probeStart;
if (!status.available) {
  process.stdout.write(`${JSON.stringify({ error: `no sandbox: ${status.reason}` })}\n`);
  process.exit(0);
}
const shell = createShellTool({ root: ws, sandbox });
const env: Record<string, string> = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
const identity = { tenant: 'b', user: 'b', roles: ['developer'], dataLevel: 'L1' as const, attributes: {} };

/** Runs `/bin/sh -c command` with the shell tool's runner, outside any sandbox; ms. */
async function plainShell(command: string, what: string): Promise<number> {
  const t = performance.now();
  const r = await runInProcessGroup({
    argv: ['/bin/sh', '-c', command],
    cwd: ws,
    env,
    timeoutMs: 30_000,
    maxOutputBytes: 65_536,
    signal: new AbortController().signal,
  });
  if (r.exitCode !== 0) throw new Error(`${command} failed ${what}: ${r.stderr}`);
  return performance.now() - t;
}

const unsandboxed = (command: string) => plainShell(command, 'unsandboxed');

async function sandboxed(command: string, grant: SandboxGrant): Promise<number> {
  const t = performance.now();
  const r = (await shell.execute(
    { command },
    { identity, sessionId: 'bench', callId: 'c', signal: new AbortController().signal, sandbox: grant },
  )) as { exitCode: number | null; stderr: string };
  if (r.exitCode !== 0) throw new Error(`${command} failed under ${grant.profile}: ${r.stderr}`);
  return performance.now() - t;
}

type Runner = (command: string) => Promise<number>;
const variants: Record<string, Runner> = {
  unsandboxed,
  'read-only': (c) => sandboxed(c, { profile: 'read-only' }),
  'workspace-write': (c) => sandboxed(c, { profile: 'workspace-write' }),
  network: (c) => sandboxed(c, { profile: 'network', allowedDomains: ['example.com'] }),
};

// Optional: the same commands wrapped by @anthropic-ai/sandbox-runtime.
const srtDir = process.env['TWINLINE_BENCH_SRT'];
if (srtDir) {
  const srt = (await import(join(srtDir, 'node_modules/@anthropic-ai/sandbox-runtime/dist/index.js'))) as {
    SandboxManager: {
      initialize(config: unknown): Promise<void>;
      wrapWithSandbox(command: string): Promise<string>;
    };
  };
  await srt.SandboxManager.initialize({
    network: { allowedDomains: [], deniedDomains: [] },
    filesystem: { denyRead: ['/root', '/home'], allowWrite: [ws], denyWrite: [join(ws, '.git')] },
  });
  // Wrapping is part of its cost (it prepares the command line per call), so it is timed too.
  variants['sandbox-runtime'] = async (command) => {
    const t = performance.now();
    const wrapped = await srt.SandboxManager.wrapWithSandbox(command);
    return performance.now() - t + (await plainShell(wrapped, 'under sandbox-runtime'));
  };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
};
const round2 = (x: number) => Math.round(x * 100) / 100;

const loadBefore = loadavg();
const out: Record<string, unknown> = {};
for (const command of ['true', 'git status']) {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  // warm-up: page cache, the probe, the identity files
  for (const run of Object.values(variants)) for (let i = 0; i < 5; i++) await run(command);
  for (let i = 0; i < ROUNDS; i++) {
    // interleaved, so a burst of load on the machine lands on every variant alike
    for (const [name, run] of Object.entries(variants)) samples[name]!.push(await run(command));
  }
  const base = samples['unsandboxed']!;
  const rows: Record<string, unknown> = {};
  for (const [name, xs] of Object.entries(samples)) {
    rows[name] = {
      p50: round2(pct(xs, 0.5)),
      p99: round2(pct(xs, 0.99)),
      ...(name === 'unsandboxed'
        ? {}
        : {
            addedP50: round2(pct(xs, 0.5) - pct(base, 0.5)),
            addedP99: round2(pct(xs, 0.99) - pct(base, 0.99)),
          }),
    };
  }
  out[command] = rows;
}
const loadAfter = loadavg();
rmSync(ws, { recursive: true, force: true });
const addedP50 = (out['true'] as Record<string, { addedP50: number }>)['read-only']!.addedP50;
process.stdout.write(
  `${JSON.stringify({
    backend: status.version,
    rounds: ROUNDS,
    probeMs: round2(probeMs),
    unitMs: 'ms per command, wall time from spawn to exit',
    ...out,
    targetAddedP50Ms: 15,
    targetMet:
      addedP50 <= 15 &&
      (out['git status'] as Record<string, { addedP50: number }>)['read-only']!.addedP50 <= 15,
    loadavg: { before: loadBefore.map(round2), after: loadAfter.map(round2) },
    cores: (await import('node:os')).cpus().length,
  })}\n`,
);
