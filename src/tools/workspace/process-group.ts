import { childProcess } from './lazy-builtins.js';

export interface GroupRunOptions {
  /** The program and its arguments (e.g. bubblewrap wrapping `/bin/sh -c …`). */
  readonly argv: readonly [string, ...string[]];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly signal: AbortSignal;
}

export interface GroupRunResult {
  /** Process-group id (= pid of the first process: the shell, or bubblewrap around it). */
  readonly pid: number | undefined;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  /** True when stdout or stderr exceeded the cap and was cut. */
  readonly truncated: boolean;
  readonly durationMs: number;
}

/** Grace between SIGTERM and SIGKILL when a run is stopped. */
const KILL_GRACE_MS = 300;

/**
 * Runs `argv` in a new process group (`detached`) and owns every process in it:
 * on timeout or abort the whole group gets SIGTERM, then SIGKILL; and when the shell finishes, any
 * process it left behind in the group is killed too, so a call never leaves work running.
 * (A process that moves itself to another session with `setsid` escapes the group; in a sandbox
 * it still dies with the sandbox's PID namespace when bubblewrap is killed — docs/sandbox.md.)
 */
export function runInProcessGroup(options: GroupRunOptions): Promise<GroupRunResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = childProcess().spawn(options.argv[0], options.argv.slice(1), {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pid = child.pid;
    const out = new CappedBuffer(options.maxOutputBytes);
    const err = new CappedBuffer(options.maxOutputBytes);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));

    let timedOut = false;
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = () => {
      killGroup(pid, 'SIGTERM');
      killTimer ??= setTimeout(() => killGroup(pid, 'SIGKILL'), KILL_GRACE_MS);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      stop();
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    if (options.signal.aborted) onAbort();

    // The shell may exit while children it started still hold the pipes; sweep the group then,
    // so 'close' (all pipes closed) follows promptly.
    child.once('exit', () => killGroup(pid, 'SIGKILL'));
    let spawnError: Error | undefined;
    let settled = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      options.signal.removeEventListener('abort', onAbort);
      killGroup(pid, 'SIGKILL');
      resolve({
        pid,
        exitCode: code,
        signal: signal,
        stdout: out.text(),
        stderr: spawnError ? `${err.text()}${spawnError.message}` : err.text(),
        timedOut,
        aborted,
        truncated: out.truncated || err.truncated,
        durationMs: Math.round(performance.now() - started),
      });
    };
    child.once('error', (error) => {
      spawnError = error;
      // Without a pid the process never started: there will be no 'close' worth waiting for.
      if (pid === undefined) finish(null, null);
    });
    child.once('close', finish);
  });
}

/** Signals every process in the group; a group that is already gone is not an error. */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Keeps the first `cap` bytes of a stream and drops the rest (still reading, so the child never blocks). */
class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  constructor(private readonly cap: number) {}
  push(chunk: Buffer): void {
    const room = this.cap - this.size;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept.length < chunk.length) this.truncated = true;
    this.chunks.push(kept);
    this.size += kept.length;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
