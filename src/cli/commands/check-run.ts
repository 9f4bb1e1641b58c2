import { prepareAgentCheck } from '../../access/index.js';
import { loadConfig, prebuiltOfficeDomain } from '../../config/index.js';
import { TwinlineError } from '../../core/index.js';
import { decisionStages, insertStage, loadConfigPolicy, ToolGateway } from '../../gateway/index.js';
import { IdentityDirectory, registerConfiguredTools } from '../../runtime/index.js';
import { writeOut } from '../write-out.js';
import type { ConfigOption } from './open-runtime.js';

/** `check` never executes, so it never audits. */
const NO_AUDIT = { record() {}, flush: async () => {} };

export interface CheckOptions extends ConfigOption {
  readonly user: string;
  readonly tool: string;
  readonly args: string;
  readonly tenant?: string;
  readonly json?: boolean;
  /** Whose allowlist applies: `deep`, `quick`, or (default) the line that has the tool. */
  readonly line?: string;
  /** `--agent NAME`: check as this sub-agent (definitions, settings, trust of `--cwd`). */
  readonly agent?: string;
  readonly cwd?: string;
  /** High-risk tools the task declared up front (comma-separated), for the intent stage. */
  readonly declare?: string;
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
  // The office domain comes from the build-time snapshot when its YAML is unchanged.
  const config = opts.config ? loadConfig(opts.config) : (prebuiltOfficeDomain() ?? loadConfig());
  // Bad input is reported before the tools module is loaded.
  const identity = new IdentityDirectory(config.users).resolve(opts.user, opts.tenant);
  const line = opts.line ?? (config.lines.quick.includes(opts.tool) ? 'quick' : 'deep');
  if (line !== 'deep' && line !== 'quick') {
    throw new TwinlineError('cli.bad-line', `--line must be deep or quick, got ${JSON.stringify(line)}`, {
      where: '--line',
    });
  }
  const allow = new Set(line === 'quick' ? config.lines.quick : config.lines.deep);
  // The configured tools only: a dry run opens no store.
  const { registry, mcp } = await registerConfiguredTools(config);
  // The same deciding stages as the line's gateway in `serve` (resilience aside).
  let stages: ReturnType<typeof decisionStages>;
  try {
    stages = decisionStages(allow, loadConfigPolicy(config, registry.list()));
  } catch (err) {
    await Promise.allSettled(mcp.map((c) => c.close()));
    throw err;
  }
  let extensions: Record<string, unknown> | undefined;
  let approvalMode: string | undefined;
  if (opts.agent) {
    const agent = prepareAgentCheck({
      cwd: opts.cwd ?? process.cwd(),
      available: registry.list().map((t) => t.name),
      agentName: opts.agent,
      tools: registry,
    });
    stages = stages.map((s) => (s.name === 'access' ? agent.stages.access : s));
    stages = insertStage(stages, agent.stages.approval, { after: 'review' });
    extensions = agent.extensions;
    approvalMode = agent.state.mode;
  }
  // A dry-run gateway over the runtime's registry: nothing executes, queues or audits.
  const gateway = new ToolGateway({ tools: registry, audit: NO_AUDIT, dryRunOnly: true, stages });
  try {
    if (!registry.has(opts.tool)) {
      throw new TwinlineError('cli.unknown-tool', `unknown tool ${JSON.stringify(opts.tool)}`, {
        where: '--tool',
      });
    }
    const declared = opts.declare
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const result = await gateway.check(
      { id: `check-${process.pid}`, name: opts.tool, arguments: args },
      {
        identity,
        // a dry run records nothing: the ids only have to be unique within it
        sessionId: `cli-check-${process.pid}`,
        domain: line,
        ...(declared ? { declaredCapabilities: declared } : {}),
        ...(extensions ? { extensions } : {}),
        ...(approvalMode ? { approvalMode } : {}),
      },
    );
    if (opts.json) {
      writeOut(
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
    writeOut(`${lines.join('\n')}\n`);
  } finally {
    await Promise.allSettled(mcp.map((c) => c.close()));
  }
}
