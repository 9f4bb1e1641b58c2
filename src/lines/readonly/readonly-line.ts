import type { ToolInvoker } from '../../agent/index.js';
import { ConfigError, type Identity } from '../../core/index.js';
import type { ToolSpec } from '../../tools/index.js';
import type { LineEventSink } from '../events.js';
import { retrievalTerms } from './retrieval-terms.js';

export interface ReadonlyLineDeps {
  /** The read-only line's gateway: retrieval still passes policy, quoting and audit. */
  readonly gateway: ToolInvoker;
  /**
   * The retrieval tool, called with `{ query, limit }` and answering `{ documents: [{ title, body }] }`
   * (`lines.readonly.retrieval` in the config). Without one the line answers without documents.
   */
  readonly searchTool?: string;
  /** Creates a ticket so a request answered in degraded mode is not lost. */
  readonly createTicket: (ticket: {
    tenant: string;
    user: string;
    sessionId: string;
    request: string;
    reason: string;
  }) => Promise<{ id: string }>;
}

export interface ReadonlyAnswer {
  readonly text: string;
  readonly sources: readonly string[];
  readonly ticketId?: string;
}

/**
 * The read-only line (docs/lines.md, "Read-only line and degradation"): a retrieval answer over the tenant's documents with
 * no tool the model chooses — for requests the router is not sure of, and the degraded mode when
 * no model can be reached, where it also files a ticket so the request is recorded, not lost.
 */
export class ReadonlyLine {
  constructor(private readonly deps: ReadonlyLineDeps) {}

  async answer(
    identity: Identity,
    request: string,
    options: {
      sessionId: string;
      /** Set on the degraded path: why no model answers, in a plain sentence the user may read. */
      degradedReason?: string;
      /** What the model service itself said: kept on the ticket for the operator, never shown. */
      degradedDetail?: string;
      /** Tools that already ran before the model service failed (the answer must not deny them). */
      executed?: readonly string[];
      emit?: LineEventSink;
      signal?: AbortSignal;
    },
  ): Promise<ReadonlyAnswer> {
    const terms = retrievalTerms(request);
    const found: { title: string; excerpt: string }[] = [];
    const searchTool = this.deps.searchTool;
    if (terms && searchTool) {
      const result = await this.deps.gateway.invoke(
        {
          id: `ro-${options.sessionId}`,
          name: searchTool,
          arguments: { query: terms, limit: 3 },
        },
        {
          identity,
          sessionId: options.sessionId,
          domain: 'readonly',
          ...(options.signal ? { signal: options.signal } : {}),
        },
      );
      if (result.status === 'executed') found.push(...documentsOf(result.output));
    }
    const ran = options.executed ?? [];
    const lines = found.length
      ? [
          `Here is what your documents say (reference only; ${ran.length ? 'nothing else was changed' : 'nothing was changed'}):`,
          ...found.map((d) => `- ${d.title}: ${d.excerpt}`),
        ]
      : [
          ran.length
            ? 'I could not find anything about this in your documents.'
            : 'I could not find anything about this in your documents, and I did not take any action.',
        ];
    if (ran.length)
      lines.push(`Before the model service failed, these ran: ${[...new Set(ran)].join(', ')}.`);
    if (!options.degradedReason) return { text: lines.join('\n'), sources: found.map((d) => d.title) };
    const ticket = await this.deps.createTicket({
      tenant: identity.tenant,
      user: identity.user,
      sessionId: options.sessionId,
      request,
      reason: options.degradedDetail
        ? `${options.degradedReason} (${options.degradedDetail.slice(0, 500)})`
        : options.degradedReason,
    });
    options.emit?.({ type: 'degraded', reason: options.degradedReason, ticketId: ticket.id });
    lines.push(
      `The assistant is in degraded mode (${options.degradedReason}); your request was recorded as ticket ${ticket.id}.`,
    );
    return { text: lines.join('\n'), sources: found.map((d) => d.title), ticketId: ticket.id };
  }
}

function documentsOf(output: unknown): { title: string; excerpt: string }[] {
  const docs = (output as { documents?: unknown })?.documents;
  if (!Array.isArray(docs)) return [];
  return docs.map((d) => {
    const r = d as Record<string, unknown>;
    const body = typeof r.body === 'string' ? r.body : JSON.stringify(r.body ?? '');
    return {
      title: String(r.title ?? 'untitled'),
      excerpt: body.length > 280 ? `${body.slice(0, 279)}…` : body,
    };
  });
}

/**
 * Checks the read-only line's retrieval tool at start-up: registered, and taking
 * `{ query, limit }` — a tool that would refuse every search cannot serve the line.
 */
export function assertRetrievalTool(tool: ToolSpec | undefined, name: string, where: string): void {
  if (!tool) {
    throw new ConfigError('config.retrieval_tool', `${JSON.stringify(name)} is not a registered tool`, {
      where,
    });
  }
  if (!tool.inputSchema.safeParse({ query: 'probe', limit: 3 }).success) {
    throw new ConfigError(
      'config.retrieval_tool',
      `${name} must accept { query: string, limit: number } and answer { documents: [{ title, body }] }`,
      { where },
    );
  }
}
