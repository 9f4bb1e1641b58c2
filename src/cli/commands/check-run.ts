import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../config/index.js';
import { TwinlineError } from '../../core/index.js';
import { createRuntime, IdentityDirectory } from '../../runtime/index.js';
import type { ConfigOption } from './open-runtime.js';

export interface CheckOptions extends ConfigOption {
  readonly user: string;
  readonly tool: string;
  readonly args: string;
  readonly tenant?: string;
  readonly json?: boolean;
}

/** Parses `--args`; a bad value is an error naming the option, never a silent `{}`. */
export function parseArgsOption(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new TwinlineError('cli.bad-args', `invalid JSON: ${(err as Error).message}`, { where: '--args' });
  }
}

export async function runCheck(opts: CheckOptions): Promise<void> {
  const args = parseArgsOption(opts.args);
  const config = loadConfig(opts.config);
  // Bad input is reported before the tools module is loaded.
  const identity = new IdentityDirectory(config.users).resolve(opts.user, opts.tenant);
  const rt = await createRuntime(config, { store: false });
  try {
    if (!rt.registry.has(opts.tool)) {
      throw new TwinlineError('cli.unknown-tool', `unknown tool ${JSON.stringify(opts.tool)}`, {
        where: '--tool',
      });
    }
    const result = await rt.gateway.check(
      { id: `check-${randomUUID()}`, name: opts.tool, arguments: args },
      { identity, sessionId: `cli-check-${randomUUID()}`, domain: 'cli' },
    );
    if (opts.json) {
      process.stdout.write(
        `${JSON.stringify({ tenant: identity.tenant, user: identity.user, tool: opts.tool, verdict: result.verdict, decision: result.decision, path: result.path }, null, 2)}\n`,
      );
      return;
    }
    const d = result.decision;
    const lines = [
      `${identity.tenant}/${identity.user} -> ${opts.tool}: ${result.verdict.toUpperCase()}`,
      `decided by: ${d.stage} (${d.ruleId})`,
      `reason: ${d.reason}`,
      'stages:',
      ...result.path.map(
        (s) => `  ${s.stage.padEnd(12)} ${s.verdict.padEnd(7)} ${s.ruleId.padEnd(24)} ${s.reason}`,
      ),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await rt.close();
  }
}
