import type { ToolInvoker } from '../../agent/index.js';
import type { Identity } from '../../core/index.js';
import type { LineEventSink } from '../events.js';
import { retrievalTerms } from './retrieval-terms.js';

export interface ReadonlyLineDeps {
  /** The read-only line's gateway: retrieval still passes policy, quoting and audit. */
  readonly gateway: ToolInvoker;
  /** The document search tool (office domain: `doc_search`). */
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
 * The read-only line (seed 004 §2.1, §4.4): a retrieval answer over the tenant's documents with
 * no tool the model chooses — for requests the router is not sure of, and the degraded mode when
 * no model can be reached, where it also files a ticket so the request is recorded, not lost.
 */
export class ReadonlyLine {
  constructor(private readonly deps: ReadonlyLineDeps) {}

  async answer(
    identity: Identity,
    request: string,
    options: { sessionId: string; degradedReason?: string; emit?: LineEventSink; signal?: AbortSignal },
  ): Promise<ReadonlyAnswer> {
    const terms = retrievalTerms(request);
    const found: { title: string; excerpt: string }[] = [];
    if (terms) {
      const result = await this.deps.gateway.invoke(
        {
          id: `ro-${options.sessionId}`,
          name: this.deps.searchTool ?? 'doc_search',
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
    const lines = found.length
      ? [
          'Here is what your documents say (reference only; nothing was changed):',
          ...found.map((d) => `- ${d.title}: ${d.excerpt}`),
        ]
      : ['I could not find anything about this in your documents, and I did not take any action.'];
    if (!options.degradedReason) return { text: lines.join('\n'), sources: found.map((d) => d.title) };
    const ticket = await this.deps.createTicket({
      tenant: identity.tenant,
      user: identity.user,
      sessionId: options.sessionId,
      request,
      reason: options.degradedReason,
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
