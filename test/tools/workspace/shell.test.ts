import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShellTool, type ShellResult } from '../../../src/tools/workspace/index.js';
import { sandboxUp } from '../../support/sandbox.js';
import { context, makeSandbox } from './workspace-fixture.js';

const box = makeSandbox();
const shell = createShellTool({
  root: box.workspace,
  shell: { maxOutputBytes: 1024, env: { GIVEN: 'yes' } },
});
const run = (args: { command: string; timeoutMs?: number }, signal?: AbortSignal) =>
  shell.execute(args, context(undefined, signal)) as Promise<ShellResult>;

beforeAll(() => mkdirSync(box.workspace, { recursive: true }));
afterAll(() => box.remove());

/** Living (non-zombie) processes whose process group is `pgid`, read from /proc. */
function livingInGroup(pgid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after "(comm)": state ppid pgrp …
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') pids.push(Number(entry));
  }
  return pids;
}

/** Pids whose parent is `ppid`. */
function childrenOf(ppid: number): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === ppid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Every living process below `pid`, from the ppid links in /proc. */
function descendantsOf(pid: number): number[] {
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = childrenOf(queue.shift()!);
    out.push(...next);
    queue.push(...next);
  }
  return out;
}

function commOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function expectAllGone(pids: readonly number[]): Promise<void> {
  const deadline = Date.now() + 5000;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(pids.filter(alive)).toEqual([]);
}

/** Killed processes vanish asynchronously; wait (bounded) until the group is empty. */
async function expectGroupGone(pgid: number): Promise<void> {
  const deadline = Date.now() + 5000;
  while (livingInGroup(pgid).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(livingInGroup(pgid)).toEqual([]);
}

describe.skipIf(!sandboxUp)('shell', () => {
  it('runs in the workspace root and reports exit code and output', async () => {
    const result = await run({ command: 'pwd; echo err >&2; exit 3' });
    expect(result).toMatchObject({
      exitCode: 3,
      stdout: `${box.workspace}\n`,
      stderr: 'err\n',
      timedOut: false,
    });
  });

  it('passes only an allow-listed environment plus configured variables', async () => {
    process.env['TWINLINE_TEST_SECRET'] = 'hunter2';
    try {
      const result = await run({ command: 'echo "[$TWINLINE_TEST_SECRET][$GIVEN]"' });
      expect(result.stdout).toBe('[][yes]\n');
    } finally {
      delete process.env['TWINLINE_TEST_SECRET'];
    }
  });

  it('caps output and keeps draining so the child never blocks', async () => {
    const result = await run({ command: 'head -c 200000 /dev/zero | tr "\\0" x; echo done >&2' });
    expect(result.stdout).toHaveLength(1024);
    expect(result).toMatchObject({ truncated: true, exitCode: 0, stderr: 'done\n' });
  });

  it('kills the whole process group on timeout, background children included', async () => {
    const result = await run({ command: "sh -c 'sleep 100 & sleep 100'", timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(result.pid).toBeGreaterThan(0);
    await expectGroupGone(result.pid!);
  });

  it('kills the whole sandbox on abort, every process it started included', async () => {
    const controller = new AbortController();
    const pending = run({ command: 'sleep 100 & sleep 100 & wait' }, controller.signal);
    let treeBeforeAbort: number[] = [];
    let sleepsBeforeAbort = 0;
    // Wait (bounded) until the shell and both sleeps run inside the sandbox, then abort.
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const leader = childrenOf(process.pid).find((pid) => commOf(pid) === 'bwrap');
      treeBeforeAbort = leader === undefined ? [] : descendantsOf(leader);
      sleepsBeforeAbort = treeBeforeAbort.filter((pid) => commOf(pid) === 'sleep').length;
      if (sleepsBeforeAbort >= 2) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    controller.abort();
    const result = await pending;
    expect(result.aborted).toBe(true);
    // Both sleeps were alive in the sandbox right before the abort (bubblewrap puts them in a
    // session of their own, so they are found through the process tree, not the group).
    expect(sleepsBeforeAbort).toBeGreaterThanOrEqual(2);
    await expectGroupGone(result.pid!);
    await expectAllGone(treeBeforeAbort);
  });

  it('leaves nothing running after the shell itself exits', async () => {
    const result = await run({ command: 'sleep 100 > /dev/null 2>&1 & echo started' });
    expect(result).toMatchObject({ stdout: 'started\n', timedOut: false });
    await expectGroupGone(result.pid!);
  });
});
