import { randomUUID } from 'node:crypto';
import { type ModelProvider, modelFailureSentence } from '../agent/index.js';
import {
  type Identity,
  runInSpan,
  type SpanAttributes,
  type SpanPort,
  type TracerPort,
} from '../core/index.js';
import type { Approver } from '../gateway/index.js';
import type { DeepAdmission } from '../resilience/index.js';
import type { DeepLine } from './deep/deep-line.js';
import { type DeepPrompts, ModelPlanner } from './deep/planner.js';
import type { LineEventSink, RequestOutcome, RouteTarget } from './events.js';
import type { ModelFailureInfo, QuickLine } from './quick/quick-line.js';
import type { ReadonlyLine } from './readonly/readonly-line.js';

/** The router's answer, as `src/router` gives it. */
export interface RouteDecision {
  readonly target: RouteTarget;
  readonly scores: { readonly deep: number; readonly quick: number };
  readonly rule: string | null;
  /** Present when the domain routes by its rules alone (no trained model). */
  readonly routing?: 'rules-only';
}

/** The input gate's answer, as `src/gates` gives it. */
export interface InputVerdict {
  readonly verdict: 'pass' | 'review' | 'block';
  readonly score: number;
  readonly findings: readonly { readonly type: string; readonly reason: string }[];
}

export interface DispatcherDeps {
  readonly route: (query: string) => RouteDecision;
  readonly scanInput?: (text: string) => InputVerdict;
  /** Parks flagged input for a human; it never enters the automatic path. */
  readonly flagInput?: (item: {
    identity: Identity;
    sessionId: string;
    query: string;
    verdict: InputVerdict;
  }) => Promise<{ id: string }>;
  readonly deep: DeepLine;
  /** Fair admission of deep tasks: caps per tenant and user, a fair queue across them. */
  readonly deepQueue: Pick<DeepAdmission, 'submit' | 'hasRoom'>;
  readonly quick: QuickLine;
  readonly readonly: ReadonlyLine;
  /** The model for a line; undefined when none is configured or the service is down → degraded. */
  readonly providerFor: (line: 'deep' | 'quick') => ModelProvider | undefined;
  /** Sees every model-service failure a request answered on the degraded path (the operator's log). */
  readonly onModelFailure?: (entry: {
    identity: Identity;
    requestId: string;
    line: 'quick';
    failure: ModelFailureInfo;
  }) => void;
  /** The domain's deep-line prompts, for a planner over a model chosen per request. */
  readonly deepPrompts?: DeepPrompts;
  /** Called with every routing decision (console, metrics). */
  readonly onRouted?: (entry: { identity: Identity; query: string; decision: RouteDecision }) => void;
  /** Spans for the line a request runs on (docs/operations.md, "Traces"); absent costs nothing. */
  readonly tracer?: TracerPort | undefined;
  /** How long a deep task waited in the line's queue before it started. */
  readonly onQueueWait?: ((line: 'deep', seconds: number) => void) | undefined;
}

export interface RequestOptions {
  /** The request's id (default: a new UUID); the HTTP server passes its own so logs and answers agree. */
  readonly requestId?: string;
  readonly sessionId?: string;
  readonly emit?: LineEventSink;
  readonly signal?: AbortSignal;
  readonly approver?: Approver;
  /** Wait for a deep task to finish (CLI, eval, streaming) instead of answering `queued`. */
  readonly waitForDeep?: boolean;
  /** A model chosen for this request (e.g. a scripted one in evaluation suites). */
  readonly provider?: ModelProvider;
  /** A reviewer already cleared this text after the input gate flagged it. */
  readonly inputReviewed?: boolean;
  /**
   * Evaluation only (never taken from a request): run this line without asking the router, so a
   * scenario's hostile model reaches the line's gateway. The input gate still runs.
   */
  readonly pinnedRoute?: 'deep' | 'quick';
}

/** The answer to one request: where it went, how it ended, what ran and what was refused. */
export interface RequestResult {
  readonly requestId: string;
  readonly sessionId: string;
  readonly route: RouteDecision;
  readonly outcome: RequestOutcome;
  readonly text: string;
  readonly executed: readonly string[];
  readonly denied: readonly string[];
  readonly taskId?: string;
  readonly position?: number;
  readonly estimatedStartMs?: number;
  readonly ticketId?: string;
  readonly reviewId?: string;
}

/**
 * The request path after ingress (ARCHITECTURE.md): input gate → router → line. Flagged input goes
 * to review and stops; uncertain requests get the read-only line; a line without a model degrades
 * to a retrieval answer plus a ticket rather than pretending.
 */
export class LineDispatcher {
  constructor(private readonly deps: DispatcherDeps) {}

  async handle(identity: Identity, query: string, options: RequestOptions = {}): Promise<RequestResult> {
    const requestId = options.requestId ?? randomUUID();
    const sessionId = options.sessionId ?? requestId;
    // Events go only to the caller's sink (nothing here reads them back, so none are kept).
    const emit: LineEventSink = (e) => {
      options.emit?.(e);
    };
    const pinned = options.pinnedRoute;
    const route: RouteDecision = pinned
      ? {
          target: pinned,
          scores: { deep: pinned === 'deep' ? 1 : 0, quick: pinned === 'quick' ? 1 : 0 },
          rule: 'pinned',
        }
      : this.deps.route(query);
    const base = { requestId, sessionId, route };

    const scan = options.inputReviewed ? undefined : this.deps.scanInput?.(query);
    if (scan && scan.verdict !== 'pass') {
      const parked = await this.deps.flagInput?.({ identity, sessionId, query, verdict: scan });
      emit({
        type: 'input_flagged',
        verdict: scan.verdict,
        score: scan.score,
        ...(parked ? { reviewId: parked.id } : {}),
      });
      const text =
        scan.verdict === 'block'
          ? 'This request was blocked by the input safety gate and recorded for review.'
          : 'This request was flagged by the input safety gate and sent to a reviewer; nothing was executed.';
      return this.#final(emit, {
        ...base,
        outcome: 'review',
        text,
        executed: [],
        denied: [],
        ...(parked ? { reviewId: parked.id } : {}),
      });
    }

    emit({ type: 'routed', target: route.target, scores: route.scores, rule: route.rule });
    this.deps.onRouted?.({ identity, query, decision: route });

    if (route.target === 'readonly_fallback') {
      const answer = await this.#inLine('readonly', identity, sessionId, () =>
        this.deps.readonly.answer(identity, query, {
          sessionId,
          emit,
          ...(options.signal ? { signal: options.signal } : {}),
        }),
      );
      return this.#final(emit, {
        ...base,
        outcome: 'completed',
        text: answer.text,
        executed: [],
        denied: [],
      });
    }

    const provider = options.provider ?? this.deps.providerFor(route.target);
    if (!provider) {
      const answer = await this.#inLine('readonly', identity, sessionId, () =>
        this.deps.readonly.answer(identity, query, {
          sessionId,
          emit,
          degradedReason: 'no model service is available',
        }),
      );
      return this.#final(emit, {
        ...base,
        outcome: 'degraded',
        text: answer.text,
        executed: [],
        denied: [],
        ...(answer.ticketId ? { ticketId: answer.ticketId } : {}),
      });
    }

    if (route.target === 'quick') {
      const run = () =>
        this.deps.quick.run(identity, query, {
          provider,
          sessionId,
          // Only a caller that listens gets the run's events (the quick line then builds them all).
          ...(options.emit ? { emit } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.approver ? { approver: options.approver } : {}),
        });
      const r = this.deps.tracer
        ? await this.#inLine('quick', identity, sessionId, run, (out) => ({
            'twinline.outcome': out.outcome,
          }))
        : await run();
      if (r.modelFailure) {
        this.deps.onModelFailure?.({ identity, requestId, line: 'quick', failure: r.modelFailure });
        // The model service failed mid-run: the degraded path, recording what already ran.
        const answer = await this.deps.readonly.answer(identity, query, {
          sessionId,
          emit,
          degradedReason: modelFailureSentence(r.modelFailure.failure),
          degradedDetail: `${r.modelFailure.message}${r.modelFailure.detail ? `: ${r.modelFailure.detail}` : ''}`,
          executed: r.executed,
        });
        return this.#final(emit, {
          ...base,
          outcome: 'degraded',
          text: answer.text,
          executed: r.executed,
          denied: r.denied,
          ...(answer.ticketId ? { ticketId: answer.ticketId } : {}),
        });
      }
      // A flat literal (the quick line's answer has exactly these fields): cheaper than a spread.
      return this.#final(emit, {
        requestId,
        sessionId,
        route,
        outcome: r.outcome,
        text: r.text,
        executed: r.executed,
        denied: r.denied,
      });
    }

    if (!this.deps.deepQueue.hasRoom(identity.tenant)) {
      // Refused before anything is persisted: the tenant's own backlog is full, nobody else's.
      return this.#final(emit, {
        ...base,
        outcome: 'rate_limited',
        text: 'Too many deep tasks of your organisation are already waiting; nothing was started. Try again later.',
        executed: [],
        denied: [],
      });
    }
    const taskId = await this.deps.deep.accept(identity, query, sessionId);
    // A queued task outlives the request that started it: only a waiting caller may cancel it.
    const signal = options.waitForDeep ? options.signal : undefined;
    const span = this.#lineSpan('deep', identity, sessionId);
    span?.set({ 'twinline.task.id': taskId });
    const queuedAt = performance.now();
    const run = () => {
      const waited = (performance.now() - queuedAt) / 1000;
      this.deps.onQueueWait?.('deep', waited);
      span?.set({ 'twinline.queue.wait_ms': Math.round(waited * 1000) });
      const running = () =>
        this.deps.deep.run(identity.tenant, taskId, {
          emit,
          signal,
          // A model chosen for this request plans its task too.
          planner: options.provider
            ? new ModelPlanner(options.provider, undefined, this.deps.deepPrompts)
            : undefined,
        });
      return span ? span.within(running) : running();
    };
    const owner = { tenant: identity.tenant, user: identity.user, taskId };
    const ticket = this.deps.deepQueue.submit(owner, run);
    if (span) {
      ticket.done.then(
        (done) => {
          span.set({ 'twinline.outcome': done?.outcome ?? 'elsewhere' });
          span.end();
        },
        (err: unknown) => {
          span.fail('exception', err instanceof Error ? err.name : undefined);
          span.end();
        },
      );
    }
    emit({
      type: 'task_accepted',
      taskId,
      position: ticket.position,
      estimatedStartMs: ticket.estimatedStartMs,
    });
    if (!options.waitForDeep) {
      ticket.done.catch(() => {});
      const minutes = Math.max(1, Math.round(ticket.estimatedStartMs / 60_000));
      const text =
        ticket.position === 0
          ? `Task ${taskId} accepted and started.`
          : `Task ${taskId} accepted; ${ticket.position} ahead of it, expected to start in ~${minutes} min.`;
      return {
        ...base,
        outcome: 'queued',
        text,
        executed: [],
        denied: [],
        taskId,
        position: ticket.position,
        estimatedStartMs: ticket.estimatedStartMs,
      };
    }
    const done = await ticket.done;
    if (!done) {
      return this.#final(emit, {
        ...base,
        outcome: 'queued',
        text: `Task ${taskId} is running in another process.`,
        executed: [],
        denied: [],
        taskId,
      });
    }
    return this.#final(emit, { ...base, ...done, taskId });
  }

  /** The span of the line a request runs on: `invoke_agent` for the quick line's agent. */
  #lineSpan(
    line: 'deep' | 'quick' | 'readonly',
    identity: Identity,
    sessionId: string,
  ): SpanPort | undefined {
    return this.deps.tracer?.start(line === 'quick' ? 'invoke_agent quick' : `twinline.line ${line}`, {
      attributes: {
        'twinline.line': line,
        'twinline.tenant': identity.tenant,
        'gen_ai.conversation.id': sessionId,
        ...(line === 'quick'
          ? { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'quick' }
          : {}),
      },
    });
  }

  /** Runs `fn` inside its line's span (when tracing) and ends the span with what it returned. */
  async #inLine<T>(
    line: 'quick' | 'readonly',
    identity: Identity,
    sessionId: string,
    fn: () => Promise<T>,
    describe?: (result: T) => SpanAttributes,
  ): Promise<T> {
    const span = this.#lineSpan(line, identity, sessionId);
    return span ? runInSpan(span, fn, describe) : fn();
  }

  #final(emit: LineEventSink, result: RequestResult): RequestResult {
    emit({
      type: 'final',
      outcome: result.outcome,
      text: result.text,
      executed: result.executed,
      denied: result.denied,
      ...(result.taskId ? { taskId: result.taskId } : {}),
    });
    return result;
  }
}
