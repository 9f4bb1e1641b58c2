import { randomUUID } from 'node:crypto';
import {
  type ApprovalMode,
  compileRuleSet,
  loadAccessEnvironment,
  resolveStartMode,
  UnknownModeError,
} from '../../access/index.js';
import {
  AgentEventEgress,
  AgentSession,
  createAccessPort,
  createControlTools,
  createProvider,
  DEFAULT_LIMITS,
  type GatedAgentEvent,
  type ModelProvider,
  modelFailureSentence,
  NoProviderError,
  parseProviderSpec,
  type RunStatus,
} from '../../agent/index.js';
import { egressSettings, type TwinlineConfig } from '../../config/index.js';
import { type Identity, TwinlineError } from '../../core/index.js';
import { Egress } from '../../gates/index.js';
import { declaredCapabilities } from '../../policy/index.js';
import { createRuntime } from '../../runtime/index.js';
import { dataFolderLine, loadCommandConfig } from './cli-config.js';

export interface RunAgentOptions {
  readonly user: string;
  readonly tenant?: string;
  readonly model?: string;
  readonly approvalMode?: string;
  /** `--permission-mode`: the same, Claude Code's names accepted; wins over `--approval-mode`. */
  readonly permissionMode?: string;
  readonly maxTurns?: number;
  readonly json?: boolean;
  readonly config?: string;
  readonly dataDir?: string;
}

/** Exit codes: 0 answered, 1 stopped or failed, 3 no model (degraded answer), 130 interrupted. */
const EXIT: Readonly<Record<RunStatus, number>> = {
  completed: 0,
  error: 1,
  max_turns: 1,
  budget_exceeded: 1,
  interrupted: 130,
};
const EXIT_NO_MODEL = 3;
/** The output gate withheld the answer. */
const EXIT_OUTPUT_BLOCKED = 1;

/**
 * Runs one request on the configured domain (the office domain by default): the real registry
 * with the control tools, a gateway of the pipeline's `agent-session` profile (access, schema,
 * policy, parameters, intent, review, approval; quoting and redaction of results), the folder's
 * permission rules and agent definitions, the audit store, and one agent session for `--user`.
 * Without a model it says so and answers from the read-only line of the platform (documents only,
 * a ticket filed), exiting non-zero — it never pretends to be an agent.
 */
export async function runAgentRequest(request: string, opts: RunAgentOptions): Promise<number> {
  // The trust gate holds on the flag and on a settings start mode alike: a privileged mode in an
  // untrusted folder is refused here (exit non-zero with the mode and folder), never downgraded.
  const access = loadAccessEnvironment({
    cwd: process.cwd(),
    ...(process.env.HOME ? { homeDir: process.env.HOME } : {}),
  });
  const flag = opts.permissionMode ?? opts.approvalMode;
  let mode: ApprovalMode;
  try {
    mode = resolveStartMode({
      ...(flag !== undefined
        ? {
            requested: {
              name: flag,
              source: opts.permissionMode !== undefined ? '--permission-mode' : '--approval-mode',
            },
          }
        : {}),
      settings: access.settings,
      trust: { trusted: access.trusted, folder: access.roots.projectRoot },
    });
  } catch (err) {
    if (err instanceof UnknownModeError) {
      throw new TwinlineError('cli.bad-mode', err.message, {
        where: opts.permissionMode !== undefined ? '--permission-mode' : '--approval-mode',
      });
    }
    throw err;
  }
  if (opts.maxTurns !== undefined && !(opts.maxTurns > 0)) {
    throw new TwinlineError('cli.bad-max-turns', 'must be a positive integer', { where: '--max-turns' });
  }
  // Check the model spec first so a bad --model fails before anything is opened.
  const spec = opts.model ?? process.env.TWINLINE_MODEL;
  if (spec?.trim()) parseProviderSpec(spec);
  const config = loadCommandConfig(opts);
  let provider: ModelProvider | undefined;
  try {
    provider = createProvider({
      ...(opts.model ? { model: opts.model } : {}),
      ...(config.model ? { service: config.model } : {}),
    });
  } catch (err) {
    if (!(err instanceof NoProviderError)) throw err;
  }
  let out = (line: string) => {
    process.stdout.write(`${line}\n`);
  };
  if (!opts.json) out(dataFolderLine(config));
  if (!provider)
    return degraded(config, request, opts, out, {
      reason: 'no model is configured (set --model or TWINLINE_MODEL)',
    });
  const rt = await createRuntime(config, { profile: 'agent-session' });
  const registry = rt.registry;
  try {
    const identity = rt.identities.resolve(opts.user, opts.tenant);
    // What the terminal shows passes the egress gate for this user (docs/gates.md, "Gated doors").
    const egress = new Egress(egressSettings(config, process.env));
    // The folder's permission rules over its roots (so the built-in engine-state deny knows the
    // project and the home) and its agent definitions, as the stream-json engine reads them.
    const rules = compileRuleSet(access.settings.ruleSources, access.roots);
    const roles = [...new Set(config.users.flatMap((u) => u.roles))];
    for (const tool of createControlTools({ allowedRoles: roles })) {
      if (!registry.has(tool.name)) registry.register(tool);
    }
    const limits = { ...(opts.maxTurns ? { maxTurns: opts.maxTurns } : {}) };
    const session = new AgentSession({
      identity,
      provider,
      gateway: rt.gateway,
      catalog: registry,
      access: createAccessPort({ rules, maxDepth: DEFAULT_LIMITS.maxDepth }),
      approvalMode: mode,
      domain: 'cli',
      limits,
      cwd: process.cwd(),
      definitions: access.definitions,
      trustedFolder: access.trusted,
      declareIntent: (prompt) => declaredCapabilities(prompt, registry.list()),
    });
    const onSigint = () => session.interrupt();
    // A closed pipe (`twinline run … | head`) stops the run instead of crashing on EPIPE.
    let piped = true;
    const onStdoutError = (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      piped = false;
      session.interrupt();
    };
    process.once('SIGINT', onSigint);
    process.stdout.on('error', onStdoutError);
    try {
      if (!opts.json) out(`${identity.tenant}/${identity.user} · ${session.model} · mode ${mode}`);
      const write = out;
      out = (line) => {
        if (piped) write(line);
      };
      const printer = opts.json ? (e: GatedAgentEvent) => out(JSON.stringify(e)) : progressPrinter(out);
      const gated = new AgentEventEgress(
        egress.for({ viewer: identity, sessionId: session.sessionId, channel: 'cli' }),
        (e) => {
          printer(e);
          // A withheld answer ends the run: the model that wrote it gets no further turn.
          if (e.type === 'output_blocked') session.interrupt();
        },
      );
      const handle = session.run(request);
      for await (const event of handle) gated.accept(event);
      gated.end();
      const result = await handle.result;
      await session.close();
      if (gated.blocked) return EXIT_OUTPUT_BLOCKED;
      const failure = result.error?.failure;
      if (failure) {
        // The model service failed: the degraded path, as on every other door (a ticket is filed).
        return degraded(config, request, opts, out, {
          reason: modelFailureSentence(failure),
          detail: `${result.error?.message ?? ''}${result.error?.detail ? `: ${result.error.detail}` : ''}`,
        });
      }
      return EXIT[result.status];
    } finally {
      process.removeListener('SIGINT', onSigint);
      // The stdout listener stays: an EPIPE can surface after the last write of a one-shot run.
    }
  } finally {
    await rt.close();
  }
}

/**
 * No model, or the model service failed: the platform's own read-only line answers (the
 * serve.readonly profile), with a ticket holding what the service said.
 */
async function degraded(
  config: TwinlineConfig,
  request: string,
  opts: RunAgentOptions,
  out: (line: string) => void,
  why: { reason: string; detail?: string },
): Promise<number> {
  const reason = why.reason;
  // Loaded only here: the platform is the degraded path's, not the agent run's.
  const { createPlatform } = await import('../../platform/index.js');
  const platform = await createPlatform(config);
  try {
    const identity: Identity = platform.runtime.identities.resolve(opts.user, opts.tenant);
    process.stderr.write(`twinline: ${reason}; answering from the read-only line.\n`);
    const sessionId = `cli-run-${randomUUID()}`;
    const raw = await platform.readonlyLine.answer(identity, request, {
      sessionId,
      degradedReason: why.detail ? reason : 'no model configured',
      ...(why.detail ? { degradedDetail: why.detail } : {}),
    });
    // What the terminal shows passes the egress gate for this user (docs/gates.md, "Gated doors").
    const gate = platform.egress.for({ viewer: identity, sessionId, channel: 'cli' });
    const answer = { ...raw, text: gate.text(raw.text), sources: gate.value(raw.sources) };
    if (opts.json) out(JSON.stringify({ type: 'degraded', reason, ...answer }));
    else out(answer.text);
    return EXIT_NO_MODEL;
  } finally {
    await platform.close();
  }
}

/** Readable progress: one line per step, the model's text streamed as it comes. */
export function progressPrinter(out: (line: string) => void): (e: GatedAgentEvent) => void {
  let text = '';
  const flush = (prefix: string) => {
    if (text.trim()) out(`${prefix}${text.trim()}`);
    text = '';
  };
  return (e) => {
    const who = e.depth > 0 ? `[${e.agent}] ` : '';
    switch (e.type) {
      case 'text_delta':
        text += e.text;
        return;
      case 'turn_start':
        return;
      case 'turn_end':
        flush(`${who}» `);
        return;
      case 'tool_proposed':
        flush(`${who}» `);
        out(`${who}→ ${e.tool} ${JSON.stringify(e.arguments)}`);
        return;
      case 'decision': {
        const mark = e.status === 'executed' ? '✓' : e.status === 'ask' || e.status === 'review' ? '?' : '✗';
        const why =
          e.status === 'executed' ? '' : ` — ${e.decision.stage}/${e.decision.ruleId}: ${e.decision.reason}`;
        out(`${who}  ${mark} ${e.tool} ${e.status}${why}`);
        return;
      }
      case 'approval_requested':
        out(`${who}  … approval requested for ${e.tool}: ${e.reason}`);
        return;
      case 'approval_answered':
        out(`${who}  … approval ${e.behavior}${e.message ? `: ${e.message}` : ''}`);
        return;
      case 'subagent_started':
        out(`${who}⇢ sub-agent ${e.child} (${e.mode}, mode ${e.approvalMode}, ${e.tools.length} tools)`);
        return;
      case 'subagent_finished':
        out(`${who}⇠ sub-agent ${e.child} ${e.status}`);
        return;
      case 'message':
        out(`${who}✉ ${e.from} → ${e.to}: ${e.text}`);
        return;
      case 'retry':
        out(
          `${who}  model request failed (${e.reason ?? (e.status ? `HTTP ${e.status}` : 'no response')}); retry ${e.attempt} in ${e.delayMs} ms`,
        );
        return;
      case 'error':
        out(`${who}! ${e.code}: ${e.message}`);
        return;
      case 'result':
        if (e.depth > 0) return;
        flush('');
        out(
          e.status === 'completed'
            ? `— done in ${e.turns} turn(s), ${e.usage.inputTokens + e.usage.outputTokens} tokens`
            : `— ${e.status}: ${e.text}`,
        );
        return;
      case 'tool_result':
        return;
      case 'output_blocked':
        text = '';
        out(`${who}⛔ ${e.text}`);
        return;
    }
  };
}
