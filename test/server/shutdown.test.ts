import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatCompletionsStub } from '../agent/support/chat-completions-stub.js';
import { assertBuilt } from '../protocol/sdk-harness.js';
import { officeTempConfig } from '../support/office-temp.js';

/**
 * Stopping a server the way an operator does: SIGTERM to `npm start` (npm → node), or to
 * `twinline serve` while a request waits on a model that never answers. Real processes; every
 * assertion is on what happened (exit codes, processes gone, the answer), never on how fast.
 */
let office: ReturnType<typeof officeTempConfig>;
let stub: ChatCompletionsStub;
let baseURL: string;

beforeAll(async () => {
  assertBuilt();
  office = officeTempConfig();
  stub = new ChatCompletionsStub();
  baseURL = await stub.start();
});
afterAll(async () => {
  await stub?.stop();
  office?.cleanup();
});

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const k of [
    'TWINLINE_MODEL',
    'TWINLINE_DATABASE_URL',
    'TWINLINE_REDIS_URL',
    'TWINLINE_CONFIG',
    'TWINLINE_HOME',
  ])
    if (!(k in extra)) delete e[k];
  return e;
}

/** `twinline serve` on the office copy with a model at `modelURL` whose own timeout is far away. */
function serveWithModel(modelURL: string, extra: Record<string, string> = {}): ChildProcess {
  const args = [join('bin', 'twinline.js'), 'serve', '--port', '0', '--config', office.configFile];
  return spawn(process.execPath, [...args, '--model', 'openai:stub-model'], {
    cwd: resolve('.'),
    env: env({
      OPENAI_BASE_URL: modelURL,
      OPENAI_API_KEY: 'k',
      TWINLINE_MODEL_TIMEOUT_MS: '600000',
      ...extra,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** One request as bob, to the quick line. */
function askQuick(url: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${url}/v1/requests`, {
    method: 'POST',
    headers: { authorization: 'Bearer tw-acme-bob-demo', 'content-type': 'application/json' },
    body: JSON.stringify({ query: '查一下华东区的客户名单' }),
    ...(signal ? { signal } : {}),
  });
}

/** Waits for the ready line; returns the API base URL. */
function ready(proc: ChildProcess): Promise<string> {
  let out = '';
  let err = '';
  proc.stderr?.on('data', (c: Buffer) => {
    err += c;
  });
  return new Promise((ok, fail) => {
    proc.stdout!.on('data', (c: Buffer) => {
      out += c;
      const m = /API: +(http:\/\/\S+)\/v1/.exec(out);
      if (m) ok(m[1]!);
    });
    proc.on('exit', (code) => fail(new Error(`exited ${code} before it was ready:\n${out}\n${err}`)));
  });
}

const exited = (proc: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) =>
    proc.on('exit', (code, signal) => ok({ code, signal })),
  );

/** The process ids below `pid` (the whole tree), from /proc. */
function descendants(pid: number): number[] {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  const children = new Map<number, number[]>();
  for (const line of out.trim().split('\n')) {
    const [p, pp] = line.trim().split(/\s+/).map(Number);
    children.set(pp!, [...(children.get(pp!) ?? []), p!]);
  }
  const all: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      all.push(c);
      walk(c);
    }
  };
  walk(pid);
  return all;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('graceful shutdown', () => {
  it('SIGTERM to `npm start` reaches the server: it drains, closes the store and exits, leaving no process', async () => {
    const proc = spawn('npm', ['start', '--', '--port', '0', '--config', office.configFile], {
      cwd: resolve('.'),
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout!.on('data', (c: Buffer) => {
      out += c;
    });
    await ready(proc);
    const tree = descendants(proc.pid!);
    expect(tree.length).toBeGreaterThan(0);
    const done = exited(proc);
    proc.kill('SIGTERM');
    expect(await done).toEqual({ code: 0, signal: null });
    // the server said it drained and stopped, and nothing of the tree is left running
    await new Promise((r) => setTimeout(r, 200));
    expect(out).toMatch(/SIGTERM: draining in-flight requests/);
    expect(out).toMatch(/stopped\./);
    expect(tree.filter(alive)).toEqual([]);
  }, 120_000);

  it('a request waiting on a hung model does not hold the server up: it is cancelled after the grace, answered, and the server exits', async () => {
    stub.reply({ kind: 'hang' });
    // the model's own timeout is far away: only the shutdown can end the request
    const proc = serveWithModel(baseURL, { TWINLINE_SHUTDOWN_GRACE_MS: '300' });
    const url = await ready(proc);
    const answer = askQuick(url);
    // the request reached the model service (which holds it)
    while (stub.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
    const done = exited(proc);
    proc.kill('SIGTERM');
    const res = await answer;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { outcome: string }).outcome).toBe('failed');
    await stub.clientClosed; // the model request was dropped on the wire
    expect(await done).toEqual({ code: 0, signal: null });
  }, 120_000);

  it('a client that goes away cancels its request’s model call', async () => {
    const fresh = new ChatCompletionsStub().reply({ kind: 'hang' });
    const freshURL = await fresh.start();
    const proc = serveWithModel(freshURL);
    try {
      const url = await ready(proc);
      const ac = new AbortController();
      const gone = askQuick(url, ac.signal).catch(() => 'aborted');
      while (fresh.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
      ac.abort();
      expect(await gone).toBe('aborted');
      await fresh.clientClosed;
    } finally {
      const done = exited(proc);
      proc.kill('SIGTERM');
      await done;
      await fresh.stop();
    }
  }, 120_000);
});
