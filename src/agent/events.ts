import type { StageDecision } from '../core/index.js';
import type { CallStatus } from '../store/index.js';
import type { ModelFailure } from './errors.js';
import type { TokenUsage } from './providers/index.js';

/** Which agent an event comes from. The main agent has depth 0 and no parent. */
export interface EventSource {
  readonly sessionId: string;
  /** Unique id of the agent instance (`main`, or `main/explorer-1`, …). */
  readonly agentId: string;
  /** Definition name (`main` for the top-level agent). */
  readonly agent: string;
  readonly depth: number;
}

/** How a run (of the main agent or a sub-agent) ended. */
export type RunStatus = 'completed' | 'interrupted' | 'max_turns' | 'budget_exceeded' | 'error';

export type AgentEvent = EventSource &
  (
    | { readonly type: 'turn_start'; readonly turn: number }
    | { readonly type: 'turn_end'; readonly turn: number; readonly usage: TokenUsage }
    | { readonly type: 'text_delta'; readonly text: string }
    | {
        readonly type: 'retry';
        readonly attempt: number;
        readonly delayMs: number;
        readonly status?: number;
        /** What failed, in words (never the service's own error text). */
        readonly reason?: string;
      }
    | {
        readonly type: 'tool_proposed';
        readonly callId: string;
        readonly tool: string;
        readonly arguments: unknown;
      }
    | {
        readonly type: 'decision';
        readonly callId: string;
        readonly tool: string;
        readonly status: CallStatus;
        readonly decision: StageDecision;
        readonly path: readonly StageDecision[];
        readonly auditId: string;
      }
    | {
        readonly type: 'tool_result';
        readonly callId: string;
        readonly tool: string;
        readonly status: CallStatus;
        /** The gateway's `modelContent`: exactly what the model is told. */
        readonly content: string;
        readonly durationMs: number;
      }
    | {
        readonly type: 'approval_requested';
        readonly callId: string;
        readonly tool: string;
        readonly reason: string;
        /** Agent whose approver answers (the parent's id when bubbled). */
        readonly approverAgentId: string;
      }
    | {
        readonly type: 'approval_answered';
        readonly callId: string;
        readonly tool: string;
        readonly behavior: 'allow' | 'deny';
        readonly message?: string;
      }
    | {
        readonly type: 'subagent_started';
        readonly childId: string;
        readonly child: string;
        readonly mode: SubagentRunMode;
        readonly approvalMode: string;
        readonly tools: readonly string[];
        readonly taskId?: string;
      }
    | {
        readonly type: 'subagent_finished';
        readonly childId: string;
        readonly child: string;
        readonly mode: SubagentRunMode;
        readonly status: RunStatus;
        readonly text: string;
        readonly taskId?: string;
      }
    | { readonly type: 'message'; readonly from: string; readonly to: string; readonly text: string }
    | {
        readonly type: 'error';
        readonly code: string;
        readonly message: string;
        readonly where?: string;
        /** Set when the model service failed (timeout, connection, error status, unusable answer). */
        readonly failure?: ModelFailure;
      }
    | {
        readonly type: 'result';
        readonly status: RunStatus;
        readonly text: string;
        readonly turns: number;
        readonly usage: TokenUsage;
        readonly durationMs: number;
      }
  );

export type AgentEventType = AgentEvent['type'];

/** How a sub-agent runs relative to its parent. */
export type SubagentRunMode = 'foreground' | 'background' | 'teammate';

export type AgentEventListener = (event: AgentEvent) => void;

/**
 * Fan-out of agent events to listeners (synchronous, errors isolated) and to any number of
 * async-iterator subscribers, each with its own buffer from the moment it subscribed.
 */
export class AgentEventBus {
  readonly #listeners = new Map<AgentEventListener, ReadonlySet<AgentEvent['type']> | undefined>();
  // The listeners as of the last change: an emit delivers to the listeners present when it began
  // (one added or removed by a listener applies from the next event) without copying per event.
  #snapshot: readonly (readonly [AgentEventListener, ReadonlySet<AgentEvent['type']> | undefined])[] = [];
  // Whether some listener takes every event, else the types some listener takes.
  #all = false;
  #wanted: ReadonlySet<AgentEvent['type']> = new Set();

  /**
   * Adds a listener; returns the function that removes it. With `types`, the listener gets only
   * events of those types, and events of other types that no one else wants are never built.
   */
  on(listener: AgentEventListener, options: { types?: readonly AgentEvent['type'][] } = {}): () => void {
    this.#listeners.set(listener, options.types ? new Set(options.types) : undefined);
    this.#changed();
    return () => {
      const removed = this.#listeners.delete(listener);
      if (removed) this.#changed();
      return removed;
    };
  }

  /** Whether an event of `type` reaches any listener: emitters skip building those that would not. */
  wants(type: AgentEvent['type']): boolean {
    return this.#all || this.#wanted.has(type);
  }

  emit(event: AgentEvent): void {
    for (const [l, types] of this.#snapshot) {
      if (types && !types.has(event.type)) continue;
      try {
        l(event);
      } catch {
        // A consumer's bug must not break the agent or the other consumers.
      }
    }
  }

  #changed(): void {
    this.#snapshot = [...this.#listeners];
    this.#all = false;
    const wanted = new Set<AgentEvent['type']>();
    for (const types of this.#listeners.values()) {
      if (!types) this.#all = true;
      else for (const t of types) wanted.add(t);
    }
    this.#wanted = wanted;
  }

  /** A buffered stream of events from now until `close` is called on the returned stream. */
  subscribe(filter?: (e: AgentEvent) => boolean): EventStream {
    const stream = new EventStream();
    const off = this.on((e) => {
      if (!filter || filter(e)) stream.push(e);
    });
    stream.onClose(off);
    return stream;
  }
}

/** One subscriber's buffered, async-iterable view of events. */
export class EventStream implements AsyncIterable<AgentEvent> {
  readonly #buffer: AgentEvent[] = [];
  #waiter: ((r: IteratorResult<AgentEvent>) => void) | undefined;
  #closed = false;
  readonly #onClose: (() => void)[] = [];

  push(e: AgentEvent): void {
    if (this.#closed) return;
    if (this.#waiter) {
      const w = this.#waiter;
      this.#waiter = undefined;
      w({ value: e, done: false });
    } else this.#buffer.push(e);
  }

  onClose(fn: () => void): void {
    this.#onClose.push(fn);
  }

  /** Ends the stream after the buffered events are consumed. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const fn of this.#onClose) fn();
    if (this.#waiter) {
      const w = this.#waiter;
      this.#waiter = undefined;
      w({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    return {
      next: () => {
        const e = this.#buffer.shift();
        if (e) return Promise.resolve({ value: e, done: false });
        if (this.#closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.#waiter = resolve;
        });
      },
      return: () => {
        this.close();
        this.#buffer.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
