import type { EgressGate, EgressStream } from '../gates/index.js';
import type { AgentEvent, AgentEventType, EventSource } from './events.js';

/** Sent in place of the rest of a streamed text the egress gate stopped; nothing follows it. */
export type OutputBlockedEvent = EventSource & {
  readonly type: 'output_blocked';
  /** The gated sentence that replaces the answer. */
  readonly text: string;
  readonly reasons: readonly string[];
};

/** What a door sends for an agent event: the event with its text gated, or the block notice. */
export type GatedAgentEvent = AgentEvent | OutputBlockedEvent;

/**
 * Which fields of each agent event carry model or tool text, and how they leave
 * (docs/gates.md, "Gated doors"): `stream` — released through the streaming gate; `text` — a
 * complete text, gated and watermarked; `value` — a JSON value whose strings are gated; `none` —
 * ids, counts, names and states only. A new event type does not compile until it is listed.
 */
export const AGENT_EVENT_EGRESS = {
  turn_start: { how: 'none' },
  turn_end: { how: 'none' },
  text_delta: { how: 'stream', fields: ['text'] },
  retry: { how: 'none' },
  tool_proposed: { how: 'value', fields: ['arguments'] },
  decision: { how: 'value', fields: ['decision', 'path'] },
  tool_result: { how: 'text', fields: ['content'] },
  approval_requested: { how: 'value', fields: ['reason'] },
  approval_answered: { how: 'value', fields: ['message'] },
  subagent_started: { how: 'none' },
  subagent_finished: { how: 'text', fields: ['text'] },
  message: { how: 'text', fields: ['text'] },
  error: { how: 'value', fields: ['message'] },
  result: { how: 'text', fields: ['text'] },
} as const satisfies Record<AgentEventType, { how: 'none' | 'stream' | 'text' | 'value'; fields?: string[] }>;

function sourceOf(e: EventSource): EventSource {
  return { sessionId: e.sessionId, agentId: e.agentId, agent: e.agent, depth: e.depth };
}

/**
 * Gates a run's agent events on their way out: streamed text is held and released per agent
 * through the streaming gate (and flushed when that agent moves on: a tool call, the end of its
 * turn, its result), every other text field is gated whole. When a stream is blocked it sends one
 * `output_blocked` event and from then on only the main agent's closing `result` (gated) — nothing
 * after the block leaks.
 */
export class AgentEventEgress {
  readonly #gate: EgressGate;
  readonly #out: (e: GatedAgentEvent) => void;
  readonly #streams = new Map<string, { stream: EgressStream; source: EventSource }>();
  #blocked: OutputBlockedEvent | undefined;

  constructor(gate: EgressGate, out: (e: GatedAgentEvent) => void) {
    this.#gate = gate;
    this.#out = out;
  }

  /** The block notice, once a stream was stopped. */
  get blocked(): OutputBlockedEvent | undefined {
    return this.#blocked;
  }

  accept(e: AgentEvent): void {
    if (this.#blocked) {
      if (e.type === 'result' && e.depth === 0) this.#out({ ...e, text: this.#gate.text(e.text) });
      return;
    }
    const g = this.#gate;
    switch (e.type) {
      case 'text_delta': {
        let s = this.#streams.get(e.agentId);
        if (!s) {
          s = { stream: g.stream(), source: sourceOf(e) };
          this.#streams.set(e.agentId, s);
        }
        const text = s.stream.push(e.text);
        if (!this.#stopped(s.stream, e) && text) this.#out({ ...e, text });
        return;
      }
      case 'turn_end':
      case 'turn_start':
        if (this.#flush(e.agentId)) this.#out(e);
        return;
      case 'tool_proposed':
        if (this.#flush(e.agentId)) this.#out({ ...e, arguments: g.value(e.arguments) });
        return;
      case 'result':
        if (this.#flush(e.agentId)) this.#out({ ...e, text: g.text(e.text) });
        return;
      case 'decision':
        this.#out({ ...e, decision: g.value(e.decision), path: g.value(e.path) });
        return;
      case 'tool_result':
        this.#out({ ...e, content: g.text(e.content) });
        return;
      case 'approval_requested':
        this.#out({ ...e, reason: g.value(e.reason) });
        return;
      case 'approval_answered':
        this.#out(e.message === undefined ? e : { ...e, message: g.value(e.message) });
        return;
      case 'subagent_finished':
        this.#out({ ...e, text: g.text(e.text) });
        return;
      case 'message':
        this.#out({ ...e, text: g.text(e.text) });
        return;
      case 'error':
        this.#out({ ...e, message: g.value(e.message) });
        return;
      case 'retry':
      case 'subagent_started':
        this.#out(e);
        return;
      default: {
        const unknown: never = e;
        throw new TypeError(`agent event ${(unknown as { type: string }).type} has no egress rule`);
      }
    }
  }

  /** Releases every text still held (the run is over). False once blocked. */
  end(): boolean {
    for (const agentId of [...this.#streams.keys()]) if (!this.#flush(agentId)) return false;
    return !this.#blocked;
  }

  /** Ends an agent's stream (releasing its rest); false when that (or an earlier) stream blocked. */
  #flush(agentId: string): boolean {
    if (this.#blocked) return false;
    const s = this.#streams.get(agentId);
    if (!s) return true;
    this.#streams.delete(agentId);
    const rest = s.stream.end();
    if (this.#stopped(s.stream, s.source)) return false;
    if (rest) this.#out({ ...s.source, type: 'text_delta', text: rest });
    return true;
  }

  #stopped(stream: EgressStream, source: EventSource): boolean {
    const b = stream.blocked;
    if (!b) return false;
    this.#blocked = {
      ...sourceOf(source),
      type: 'output_blocked',
      text: b.text,
      reasons: b.outbound.reasons,
    };
    this.#out(this.#blocked);
    return true;
  }
}
