import {
  ACCESS_EXTENSION_KEY,
  gateApprovalMode,
  parseApprovalMode,
  prepareAgentCheck,
} from '../../access/index.js';
import { configSource, loadConfig, prebuiltOfficeDomain, type TwinlineConfig } from '../../config/index.js';
import { type Identity, TwinlineError } from '../../core/index.js';
import type { GatewayCheck } from '../../gateway/index.js';
import { resolveLineAllowlists } from '../../lines/line-allowlists.js';
import {
  checkProfile,
  type EffectiveSlot,
  explainLines,
  type GatewaySite,
  loadConfigPolicy,
  Pipeline,
  type PipelineProfile,
  PROFILES,
  profileNamed,
  reviewReplayProfile,
} from '../../pipeline/index.js';
import { declaredCapabilities } from '../../policy/index.js';
import { IdentityDirectory, registerConfiguredTools } from '../../runtime/index.js';
import { EXIT_ATTENTION, EXIT_FAILED, EXIT_OK } from '../exit-codes.js';
import { writeOut } from '../write-out.js';
import type { ConfigOption } from './open-runtime.js';

/** `check` never executes, so it never audits. */
const NO_AUDIT = { record() {}, flush: async () => {} };

export interface CheckOptions extends ConfigOption {
  /** Required, except for the host-session profile (the local operator). */
  readonly user?: string;
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
  /** The user's request: its intent phrases declare high-risk tools, as a session derives them. */
  readonly request?: string;
  /** The door to check as (a profile name); default: the serve line, or `agent-session` with --agent. */
  readonly profile?: string;
  /** Print the profile and every slot, on or off and why. */
  readonly explain?: boolean;
  /** The approval mode of a session profile (default: the folder's settings, else `default`). */
  readonly mode?: string;
  /** `--exit-code`: the verdict as the exit code (0 allow, 1 deny, 3 review or ask). */
  readonly exitCode?: boolean;
}

/** `check --exit-code`: each verdict's exit code (docs/cli.md, "Exit codes"). */
export const CHECK_EXIT: Readonly<Record<string, number>> = {
  allow: EXIT_OK,
  deny: EXIT_FAILED,
  review: EXIT_ATTENTION,
  ask: EXIT_ATTENTION,
};

/** Parses `--args`; a bad value is an error naming the option, never a silent `{}`. */
export function parseArgsOption(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new TwinlineError('cli.bad-args', `invalid JSON: ${(err as Error).message}`, { where: '--args' });
  }
}

/** What a dry run decided, with the profile it ran and that profile's slots. */
export interface CheckOutcome {
  readonly identity: Identity;
  readonly profile: PipelineProfile;
  readonly slots: readonly EffectiveSlot[];
  readonly result: GatewayCheck;
}

/**
 * The dry run behind `twinline check`: the same pipeline, profile and tool set as the door being
 * checked (a serve line, an agent session, the stream-json engine, the host session, the library
 * or a review replay), stopping before anything executes, queues, asks or audits.
 */
export async function checkCall(opts: CheckOptions, loaded?: TwinlineConfig): Promise<CheckOutcome> {
  const args = parseArgsOption(opts.args);
  // The office domain comes from the build-time snapshot when its YAML is unchanged.
  const source = configSource(opts.config);
  const config = loaded ?? (source.file ? loadConfig(source.file) : (prebuiltOfficeDomain() ?? loadConfig()));
  const asked = opts.line;
  if (asked !== undefined && asked !== 'deep' && asked !== 'quick') {
    throw new TwinlineError('cli.bad-line', `--line must be deep or quick, got ${JSON.stringify(asked)}`, {
      where: '--line',
    });
  }
  // Until the tools are loaded, the line is what was asked or what names the tool exactly.
  let line: 'deep' | 'quick' = asked ?? (config.lines.quick.includes(opts.tool) ? 'quick' : 'deep');
  const replay = opts.profile?.startsWith('review-replay:');
  const named = replay ? opts.profile!.slice('review-replay:'.length) : opts.profile;
  let door: PipelineProfile = named
    ? profileNamed(named)
    : opts.agent
      ? PROFILES['agent-session']
      : PROFILES[line === 'quick' ? 'serve.quick' : 'serve.deep'];
  const serveLine = door.name.startsWith('serve.');
  const session = !serveLine && door.name !== 'library';
  if (opts.mode !== undefined && !parseApprovalMode(opts.mode)) {
    throw new TwinlineError('cli.bad-mode', `unknown approval mode ${JSON.stringify(opts.mode)}`, {
      where: '--mode',
    });
  }
  // Bad input is reported before the tools module is loaded. A host session acts for the local
  // operator, as the engine does when no directory user is set.
  let identity: Identity;
  if (door.name === 'host-session') {
    const { identityFor } = await import('../../protocol/agent-runtime.js');
    const { TWINLINE_USER: _ignored, ...env } = process.env;
    identity = identityFor(config, env);
  } else {
    if (!opts.user) {
      throw new TwinlineError('cli.missing-user', `--user is required for profile ${door.name}`, {
        where: '--user',
      });
    }
    identity = new IdentityDirectory(config.users).resolve(opts.user, opts.tenant);
  }
  // The configured tools (a dry run opens no store), plus a session's own, as that door has them.
  const { registry, mcp } = await registerConfiguredTools(config);
  try {
    if (door.name === 'stream-json' || door.name === 'host-session') {
      const { engineRegistry } = await import('../../protocol/agent-runtime.js');
      const engine = await engineRegistry(config, identity, opts.cwd ?? process.cwd());
      for (const t of engine.list()) if (!registry.has(t.name)) registry.register(t);
    } else if (session) {
      const { createControlTools } = await import('../../agent/index.js');
      const roles = [...new Set(config.users.flatMap((u) => u.roles))];
      for (const t of createControlTools({ allowedRoles: roles }))
        if (!registry.has(t.name)) registry.register(t);
    }
    if (!registry.has(opts.tool)) {
      throw new TwinlineError('cli.unknown-tool', `unknown tool ${JSON.stringify(opts.tool)}`, {
        where: '--tool',
      });
    }
    // The lines' allowlists as the platform expands them (names, mcp__<server>, globs).
    const lineTools = resolveLineAllowlists(
      config.lines,
      registry.list().map((t) => t.name),
      config.file,
    );
    if (asked === undefined && !named && !opts.agent) {
      line = lineTools.quick.includes(opts.tool) ? 'quick' : 'deep';
      door = PROFILES[line === 'quick' ? 'serve.quick' : 'serve.deep'];
    }
    const target = replay ? reviewReplayProfile(door) : door;
    const pipeline = new Pipeline({ policy: loadConfigPolicy(config, registry.list()), audit: NO_AUDIT });
    const profile = checkProfile(target);
    const lineAllow =
      door.name === 'serve.quick'
        ? lineTools.quick
        : door.name === 'serve.readonly'
          ? config.lines.retrieval
            ? [config.lines.retrieval]
            : []
          : lineTools.deep;
    const site: GatewaySite = serveLine
      ? { tools: registry, allow: new Set(lineAllow) }
      : door.name === 'library'
        ? { tools: registry, allow: new Set(registry.list().map((t) => t.name)) }
        : { tools: registry };
    let extensions: Record<string, unknown> | undefined;
    let approvalMode: string | undefined;
    if (session) {
      const agent = prepareAgentCheck({
        cwd: opts.cwd ?? process.cwd(),
        available: registry.list().map((t) => t.name),
        ...(opts.agent ? { agentName: opts.agent } : {}),
      });
      // The trust gate holds here as at the door: a privileged mode needs a trusted folder.
      const mode =
        opts.mode === undefined
          ? undefined
          : gateApprovalMode(
              { name: opts.mode, source: '--mode' },
              { trusted: agent.environment.trusted, folder: agent.environment.roots.projectRoot },
            );
      const state = mode ? { ...agent.state, mode } : agent.state;
      extensions = { ...agent.extensions, [ACCESS_EXTENSION_KEY]: state };
      approvalMode = state.mode;
    }
    const gateway = pipeline.gateway(profile, site, { dryRun: true });
    const declared = [
      ...(opts.declare
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean) ?? []),
      ...(opts.request !== undefined ? declaredCapabilities(opts.request, registry.list()) : []),
    ];
    const result = await gateway.check(
      { id: `check-${process.pid}`, name: opts.tool, arguments: args },
      {
        identity,
        // a dry run records nothing: the ids only have to be unique within it
        sessionId: `cli-check-${process.pid}`,
        domain: serveLine ? door.name.slice('serve.'.length) : 'cli',
        ...(opts.declare !== undefined || opts.request !== undefined
          ? { declaredCapabilities: declared }
          : {}),
        ...(extensions ? { extensions } : {}),
        ...(approvalMode ? { approvalMode } : {}),
      },
    );
    return { identity, profile, slots: pipeline.explain(profile), result };
  } finally {
    await Promise.allSettled(mcp.map((c) => c.close()));
  }
}

export async function runCheck(opts: CheckOptions): Promise<void> {
  const { identity, profile, slots, result } = await checkCall(opts);
  if (opts.exitCode) process.exitCode = CHECK_EXIT[result.verdict] ?? EXIT_FAILED;
  if (opts.json) {
    writeOut(
      `${JSON.stringify(
        {
          tenant: identity.tenant,
          user: identity.user,
          tool: opts.tool,
          profile: profile.name,
          verdict: result.verdict,
          decision: result.decision,
          path: result.path,
          ...(opts.explain ? { slots } : {}),
        },
        null,
        2,
      )}\n`,
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
    ...(opts.explain ? explainLines(profile, slots) : [`profile: ${profile.name}`]),
  ];
  writeOut(`${lines.join('\n')}\n`);
}
