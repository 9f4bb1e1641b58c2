import { randomUUID } from 'node:crypto';
import { parseApprovalMode } from '../../access/index.js';
import {
  AgentEventEgress,
  AgentSession,
  agentGatewayStages,
  createAccessPort,
  createControlTools,
  createProvider,
  DEFAULT_LIMITS,
  type GatedAgentEvent,
  type ModelProvider,
  NoProviderError,
  type RunStatus,
} from '../../agent/index.js';
import { egressSettings, loadConfig } from '../../config/index.js';
import { type Identity, TwinlineError } from '../../core/index.js';
import { Egress, type EgressGate } from '../../gates/index.js';
import { ReadonlyLine } from '../../lines/index.js';
import { createRuntime, type Runtime } from '../../runtime/index.js';

export interface RunAgentOptions {
  readonly user: string;
  readonly tenant?: string;
  readonly model?: string;
  readonly approvalMode?: string;
  readonly maxTurns?: number;
  readonly json?: boolean;
  readonly config?: string;
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
 * with the control tools, the gateway with the access and approval stages, the audit store, and
 * one agent session for `--user`. Without a model it says so and answers from the read-only line
 * (documents only, a ticket filed), exiting non-zero — it never pretends to be an agent.
 */
export async function runAgentRequest(request: string, opts: RunAgentOptions): Promise<number> {
  const mode = parseApprovalMode(opts.approvalMode ?? 'default');
  if (!mode || mode === 'bubble') {
    throw new TwinlineError('cli.bad-mode', `unknown approval mode ${JSON.stringify(opts.approvalMode)}`, {
      where: '--approval-mode',
    });
  }
  if (opts.maxTurns !== undefined && !(opts.maxTurns > 0)) {
    throw new TwinlineError('cli.bad-max-turns', 'must be a positive integer', { where: '--max-turns' });
  }
  // Resolve the model first so a bad --model fails before anything is opened.
  let provider: ModelProvider | undefined;
  try {
    provider = createProvider(opts.model);
  } catch (err) {
    if (!(err instanceof NoProviderError)) throw err;
  }
  const config = loadConfig(opts.config);
  let registry: Runtime['registry'] | undefined;
  const rt = await createRuntime(config, { stages: agentGatewayStages((name) => registry?.get(name)) });
  registry = rt.registry;
  let out = (line: string) => {
    process.stdout.write(`${line}\n`);
  };
  try {
    const identity = rt.identities.resolve(opts.user, opts.tenant);
    // What the terminal shows passes the egress gate for this user (docs/gates.md, "Gated doors").
    const egress = new Egress(egressSettings(config, process.env));
    const gateFor = (sessionId: string) => egress.for({ viewer: identity, sessionId, channel: 'cli' });
    if (!provider) return await degraded(rt, identity, request, opts, out, gateFor);
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
      access: createAccessPort({ maxDepth: DEFAULT_LIMITS.maxDepth }),
      approvalMode: mode,
      domain: 'cli',
      limits,
      cwd: process.cwd(),
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
      const gated = new AgentEventEgress(gateFor(session.sessionId), (e) => {
        printer(e);
        // A withheld answer ends the run: the model that wrote it gets no further turn.
        if (e.type === 'output_blocked') session.interrupt();
      });
      const handle = session.run(request);
      for await (const event of handle) gated.accept(event);
      gated.end();
      const result = await handle.result;
      await session.close();
      return gated.blocked ? EXIT_OUTPUT_BLOCKED : EXIT[result.status];
    } finally {
      process.removeListener('SIGINT', onSigint);
      // The stdout listener stays: an EPIPE can surface after the last write of a one-shot run.
    }
  } finally {
    await rt.close();
  }
}

async function degraded(
  rt: Runtime,
  identity: Identity,
  request: string,
  opts: RunAgentOptions,
  out: (line: string) => void,
  gateFor: (sessionId: string) => EgressGate,
): Promise<number> {
  const reason = 'no model is configured (set --model or TWINLINE_MODEL)';
  process.stderr.write(`twinline: ${reason}; answering from the read-only line.\n`);
  const store = rt.store!;
  const line = new ReadonlyLine({
    gateway: rt.gateway,
    createTicket: (t) => store.forTenant(t.tenant).tickets.create(t),
  });
  const sessionId = `cli-run-${randomUUID()}`;
  const raw = await line.answer(identity, request, { sessionId, degradedReason: 'no model configured' });
  const gate = gateFor(sessionId);
  const answer = { ...raw, text: gate.text(raw.text), sources: gate.value(raw.sources) };
  if (opts.json) out(JSON.stringify({ type: 'degraded', reason, ...answer }));
  else out(answer.text);
  return EXIT_NO_MODEL;
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
        out(`${who}  model busy${e.status ? ` (${e.status})` : ''}; retrying in ${e.delayMs} ms`);
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
