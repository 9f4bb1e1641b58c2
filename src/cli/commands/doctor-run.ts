import { ProcessSandbox, sandboxOptionsFromEnv } from '../../tools/workspace/index.js';
import { writeOut } from '../write-out.js';

export interface DoctorOptions {
  readonly json?: boolean;
}

/**
 * Prints one line per check; exit code 1 when the sandbox is missing, so a CI step or an
 * installer can stop on it. The sandbox is probed exactly as the engine probes it (same
 * environment variables), so what this says is what a session will do.
 */
export function runDoctor(opts: DoctorOptions, env: NodeJS.ProcessEnv = process.env): number {
  const sandbox = new ProcessSandbox(sandboxOptionsFromEnv(env));
  const status = sandbox.status();
  if (opts.json) {
    writeOut(`${JSON.stringify({ sandbox: { ...status, summary: sandbox.describe() } }, null, 2)}\n`);
  } else {
    writeOut(`sandbox: ${status.available ? 'ok' : 'UNAVAILABLE'} — ${sandbox.describe()}\n`);
  }
  return status.available ? 0 : 1;
}
