import { packageVersion } from '../core/index.js';
import { parseStreamJsonArgs } from './argv.js';
import { ControlTrace } from './control-trace.js';
import { StreamJsonEngine } from './engine.js';
import { ProtocolError } from './errors.js';
import { resolvePermissionMode, validPermissionModeNames } from './permission-modes.js';
import type { EngineRuntimeFactory } from './runtime.js';

/** The runtime adapter is loaded only when the first turn (or `initialize`) needs it. */
const createAgentRuntime: EngineRuntimeFactory = async (config) => {
  const { createAgentRuntime: create } = await import('./agent-runtime.js');
  return create(config);
};

/**
 * The trust gate of this session's folder, loaded on first use: only a privileged mode needs it,
 * so answering `initialize` still loads no access code. Home as the runtime reads settings.
 */
export function trustGateFor(
  cwd: string,
  env: NodeJS.ProcessEnv,
): (request: { readonly name: string; readonly source: string }) => Promise<void> {
  let trust: Promise<{ trusted: boolean; folder: string }> | undefined;
  return async (request) => {
    const access = await import('../access/index.js');
    trust ??= Promise.resolve(access.loadFolderTrust({ cwd, homeDir: env['HOME'] ?? cwd }));
    access.gateApprovalMode(request, await trust);
  };
}

function envNumber(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/**
 * `twinline --input-format stream-json --output-format stream-json …`: speaks the control
 * protocol on stdin/stdout until stdin closes and the queued turns are done. Returns the exit code.
 * stdout carries protocol JSON only; diagnostics go to stderr.
 */
export async function runStdioMode(
  argv: readonly string[],
  factory: EngineRuntimeFactory = createAgentRuntime,
): Promise<number> {
  const log = (message: string): void => {
    process.stderr.write(`twinline: ${message}\n`);
  };
  let args: ReturnType<typeof parseStreamJsonArgs>;
  try {
    args = parseStreamJsonArgs(argv.slice(2));
  } catch (err) {
    if (err instanceof ProtocolError) {
      log(err.message);
      return 2;
    }
    throw err;
  }
  const env = process.env;
  const cwd = process.cwd();
  const modeGate = trustGateFor(cwd, env);
  // The host's start mode passes the same gate as a later `set_permission_mode`: an unknown or
  // refused mode ends the process with a message (exit 2), never a quiet `default`.
  const requested = args.permissionMode;
  if (requested !== undefined) {
    const resolved = resolvePermissionMode(requested);
    if (!resolved) {
      log(
        `Invalid permission mode: ${requested}. Valid values are: ${validPermissionModeNames().join(', ')}`,
      );
      return 2;
    }
    if (resolved.approvalMode !== 'default' && resolved.approvalMode !== 'plan') {
      try {
        await modeGate({ name: requested, source: '--permission-mode' });
      } catch (err) {
        log(err instanceof Error ? err.message : String(err));
        return 2;
      }
    }
  }
  let stdoutBroken = false;
  const trace = env['TWINLINE_TRACE_CONTROL'] ? new ControlTrace(env['TWINLINE_TRACE_CONTROL']) : undefined;

  return new Promise<number>((resolve) => {
    let finished = false;
    const finish = (code: number): void => {
      if (finished) return;
      finished = true;
      trace?.flush();
      process.stdin.off('data', onData);
      process.stdin.off('end', onEnd);
      process.stdin.pause();
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onTerm);
      const done = (): void => {
        resolve(code);
        // A handle the runtime left open must not keep the host waiting for our exit.
        setTimeout(() => process.exit(code), 200).unref();
      };
      if (stdoutBroken) done();
      else process.stdout.write('', done);
    };
    const engine = new StreamJsonEngine({
      args,
      cwd,
      env,
      modeGate,
      write: (line) => {
        if (stdoutBroken) throw new Error('stdout is closed');
        trace?.out(line);
        process.stdout.write(line);
      },
      log,
      createRuntime: factory,
      permissionTimeoutMs: envNumber(env, 'TWINLINE_PERMISSION_TIMEOUT_MS'),
      maxLineChars: envNumber(env, 'TWINLINE_MAX_LINE_CHARS'),
      version: packageVersion(),
      onDone: finish,
    });
    process.stdout.on('error', (err: Error) => {
      stdoutBroken = true;
      log(`stdout: ${err.message}`);
      engine.terminate('host stopped reading');
    });
    const onData = trace
      ? (chunk: string): void => {
          trace.in(chunk);
          engine.feed(chunk);
        }
      : (chunk: string): void => engine.feed(chunk);
    const onEnd = (): void => engine.endInput();
    const onTerm = (): void => {
      engine.terminate('terminated by signal');
      // Whatever still runs gets a short grace period, then the process goes.
      setTimeout(() => finish(0), 500).unref();
    };
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', onData);
    process.stdin.on('end', onEnd);
    process.stdin.on('error', onEnd);
    process.on('SIGTERM', onTerm);
    process.on('SIGINT', onTerm);
  });
}
