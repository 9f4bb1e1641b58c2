import type { AgentAccess, AgentEvent, ModelProvider, ToolCatalog, ToolInvoker } from '../../agent/index.js';
import { AgentSession } from '../../agent/index.js';
import type { Identity } from '../../core/index.js';
import type { Approver, ThirdPartyTextLedger } from '../../gateway/index.js';
import type { LineEventSink, RequestOutcome } from '../events.js';
import { outcomeOf } from '../outcome.js';

export interface QuickLineDeps {
  /** The quick line's own gateway (its allowlisted, cache-wrapped tools, its rate limit). */
  readonly gateway: ToolInvoker;
  /** The quick line's tools: only its allowlist. */
  readonly catalog: ToolCatalog;
  readonly access: AgentAccess;
  readonly now?: () => Date;
  readonly maxTurns?: number;
}

export interface QuickRunResult {
  readonly outcome: RequestOutcome;
  readonly text: string;
  readonly executed: readonly string[];
  readonly denied: readonly string[];
}

// Role, style and the clock only: no permission lives in a prompt (seed 004 §3.4).
const QUICK_SYSTEM =
  'You are an office assistant for short tasks (1-3 tool calls). Use exact ISO-8601 times. Answer briefly.';

/**
 * The quick line (seed 004 §2.3): high-frequency 1–3 step work with strict-schema tools, the
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
    const session = new AgentSession({
      identity,
      provider: options.provider,
      gateway: this.deps.gateway,
      catalog: this.deps.catalog,
      access: this.deps.access,
      sessionId: options.sessionId,
      domain: 'quick',
      approvalMode: 'default',
      systemPrompt: `${QUICK_SYSTEM}\nCurrent time: ${now.toISOString()}`,
      limits: { maxTurns: this.deps.maxTurns ?? 4 },
      ...(options.approver ? { approver: options.approver } : {}),
      ...(options.thirdPartyText ? { thirdPartyText: options.thirdPartyText } : {}),
      declaredCapabilities: options.declaredCapabilities ?? [],
    });
    const events: AgentEvent[] = [];
    const off = session.events.on((e) => {
      events.push(e);
      options.emit?.({ type: 'agent', event: e });
    });
    const abort = () => session.interrupt();
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      const result = await session.run(request).result;
      return outcomeOf(events, result.text, result.status);
    } finally {
      options.signal?.removeEventListener('abort', abort);
      off();
      await session.close();
    }
  }
}
