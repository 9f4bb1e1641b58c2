import type {
  AgentAccess,
  AgentEvent,
  ModelFailure,
  ModelProvider,
  ToolCatalog,
  ToolInvoker,
} from '../../agent/index.js';
import { AgentSession } from '../../agent/index.js';
import type { Identity } from '../../core/index.js';
import type { Approver, ThirdPartyTextLedger } from '../../gateway/index.js';
import { ShingleLedger } from '../../policy/index.js';
import type { RecentSummaries } from '../context/recent-summaries.js';
import type { LineEventSink, RequestOutcome } from '../events.js';
import { outcomeOf } from '../outcome.js';
import { writeFact } from './write-fact-stage.js';

export interface QuickLineDeps {
  /** The quick line's own gateway (its allowlisted, cache-wrapped tools, its rate limit). */
  readonly gateway: ToolInvoker;
  /** The quick line's tools: only its allowlist. */
  readonly catalog: ToolCatalog;
  readonly access: AgentAccess;
  readonly now?: () => Date;
  readonly maxTurns?: number;
  /** The context bus as lines use it: the prompt gets recent summaries, writes publish a fact. */
  readonly context?: RecentSummaries;
  /** The domain's system prompt (`prompts.quick`); default {@link DEFAULT_QUICK_PROMPT}. */
  readonly systemPrompt?: string;
}

export interface QuickRunResult {
  readonly outcome: RequestOutcome;
  readonly text: string;
  readonly executed: readonly string[];
  readonly denied: readonly string[];
  /** The model service failed during the run (the dispatcher then answers on the degraded path). */
  readonly modelFailure?: ModelFailureInfo;
}

/** A model-service failure as the lines pass it on: how, our words, and what the service said. */
export interface ModelFailureInfo {
  readonly failure: ModelFailure;
  readonly message: string;
  readonly detail?: string;
}

// Role, style and the clock only: no permission lives in a prompt (docs/policy.md: the model cannot talk its way past a rule it never sees). The domain's
// own role and style come from its config (`prompts.quick`).
export const DEFAULT_QUICK_PROMPT =
  'You are an assistant for short tasks (1-3 tool calls). Use exact ISO-8601 times. Answer briefly.';

/** The agent events a quick run's outcome and its write summaries are made from. */
const QUICK_OUTCOME_EVENTS: readonly AgentEvent['type'][] = ['decision', 'tool_proposed'];

/**
 * The quick line (docs/lines.md, "Quick line and its read cache"): high-frequency 1–3 step work with strict-schema tools, the
 * current time in the prompt, a thin context and the read cache (in its gateway's tools).
 */
export class QuickLine {
  constructor(private readonly deps: QuickLineDeps) {}

  async run(
    identity: Identity,
    request: string,
    options: {
      provider: ModelProvider;
      sessionId: string;
      emit?: LineEventSink;
      signal?: AbortSignal;
      approver?: Approver;
      thirdPartyText?: ThirdPartyTextLedger;
      declaredCapabilities?: readonly string[];
    },
  ): Promise<QuickRunResult> {
    const now = this.deps.now?.() ?? new Date();
    // Text from tool output is recorded here (by the quoting stage) so a high-risk argument that
    // merely repeats it is caught; the user's own words are trusted.
    const ledger = options.thirdPartyText ?? new ShingleLedger();
    if (ledger instanceof ShingleLedger) ledger.addTrusted(request);
    const recent = this.deps.context?.promptLine(identity.tenant, identity.user) ?? '';
    const session = new AgentSession({
      identity,
      provider: options.provider,
      gateway: this.deps.gateway,
      catalog: this.deps.catalog,
      access: this.deps.access,
      sessionId: options.sessionId,
      domain: 'quick',
      approvalMode: 'default',
      systemPrompt: quickSystemPrompt(now, recent, this.deps.systemPrompt),
      limits: { maxTurns: this.deps.maxTurns ?? 4 },
      ...(options.approver ? { approver: options.approver } : {}),
      thirdPartyText: ledger,
      declaredCapabilities: options.declaredCapabilities ?? [],
    });
    const events: AgentEvent[] = [];
    const emit = options.emit;
    // The outcome needs the decisions and the write summaries the proposals; a caller streaming
    // the run gets every event, a caller that only wants the answer lets the rest go unbuilt.
    const off = emit
      ? session.events.on((e) => {
          events.push(e);
          emit({ type: 'agent', event: e });
        })
      : session.events.on((e) => events.push(e), { types: QUICK_OUTCOME_EVENTS });
    const abort = () => session.interrupt();
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      // Only the result and the listener above are used: no buffered event stream per request.
      const result = await session.run(request, { stream: false }).result;
      // Summaries are best-effort: a bus outage never fails a write that already happened.
      await this.#publishWrites(identity, events).catch(() => {});
      const outcome = outcomeOf(events, result.text, result.status);
      const failure = result.error?.failure;
      return failure && result.error
        ? {
            ...outcome,
            modelFailure: {
              failure,
              message: result.error.message,
              ...(result.error.detail ? { detail: result.error.detail } : {}),
            },
          }
        : outcome;
    } finally {
      options.signal?.removeEventListener('abort', abort);
      off();
      await session.close();
    }
  }

  /** One summary per executed write: the tool and the ids it was called with, never the payload. */
  async #publishWrites(identity: Identity, events: readonly AgentEvent[]): Promise<void> {
    const context = this.deps.context;
    if (!context) return;
    const proposed = new Map<string, unknown>();
    for (const e of events) {
      if (e.type === 'tool_proposed') proposed.set(e.callId, e.arguments);
      if (e.type !== 'decision' || e.status !== 'executed') continue;
      const tool = this.deps.catalog.get(e.tool);
      if (!tool || tool.annotations.readOnly) continue;
      const fact = writeFact(e.tool, proposed.get(e.callId));
      const published = await context.publish({
        tenant: identity.tenant,
        user: identity.user,
        fromLine: 'quick',
        kind: `tool.${e.tool.toLowerCase()}`,
        summary: `user ${fact}`,
        refs: idRefs(proposed.get(e.callId)),
      });
      // A summary the bus refuses (e.g. an id that is an e-mail) is replaced by the bare tool name.
      if (!published)
        await context.publish({
          tenant: identity.tenant,
          user: identity.user,
          fromLine: 'quick',
          kind: `tool.${e.tool.toLowerCase()}`,
          summary: `user ran ${e.tool}`,
        });
    }
  }
}

/** The quick line's system prompt: role, the current time and the user's recent summaries. */
export function quickSystemPrompt(now: Date, recent = '', role = DEFAULT_QUICK_PROMPT): string {
  return `${role}\nCurrent time: ${now.toISOString()}${recent ? `\n${recent}` : ''}`;
}

function idRefs(args: unknown): string[] {
  if (!args || typeof args !== 'object') return [];
  return Object.entries(args as Record<string, unknown>)
    .filter(([k, v]) => /id$/i.test(k) && (typeof v === 'string' || typeof v === 'number'))
    .map(([k, v]) => `${k}:${v}`);
}
