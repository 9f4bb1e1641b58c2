import { AgentEventEgress, type GatedAgentEvent } from '../agent/index.js';
import type { EgressGate } from '../gates/index.js';
import type { RequestResult } from './dispatcher.js';
import type { LineEvent } from './events.js';

/** A line event as a door sends it: agent events gated (and possibly the block notice). */
export type GatedLineEvent =
  | Exclude<LineEvent, { type: 'agent' }>
  | { type: 'agent'; event: GatedAgentEvent };

/**
 * Which fields of each line event carry model or tool text (docs/gates.md, "Gated doors"); the
 * `agent` event's payload follows `AGENT_EVENT_EGRESS`. A new event type does not compile until
 * it is listed here.
 */
export const LINE_EVENT_EGRESS = {
  routed: { how: 'none' },
  input_flagged: { how: 'none' },
  task_accepted: { how: 'none' },
  plan: { how: 'value', fields: ['steps'] },
  step_started: { how: 'value', fields: ['goal'] },
  step_finished: { how: 'text', fields: ['summary'] },
  agent: { how: 'agent', fields: ['event'] },
  degraded: { how: 'value', fields: ['reason'] },
  final: { how: 'text', fields: ['text'] },
} as const satisfies Record<
  LineEvent['type'],
  { how: 'none' | 'text' | 'value' | 'agent'; fields?: string[] }
>;

/** The request's answer as it leaves: its text through the egress gate, with the verdict. */
export type GatedRequestResult = RequestResult & {
  readonly outputGate: { readonly verdict: string; readonly reasons: readonly string[] };
  /**
   * The session watermark as a token (`twm2.…`, opaque without the tenant's key), unless the
   * channel has marks off: the only mark of a JSON answer or of a `field` channel.
   */
  readonly watermark?: string;
};

/** The egress gate on a request's answer (outbound classifier, PII for the viewer, watermark). */
export function gateRequestResult(gate: EgressGate, result: RequestResult): GatedRequestResult {
  const gated = gate.inspect(result.text);
  const watermark = gate.token();
  return {
    ...result,
    text: gated.text,
    outputGate: { verdict: gated.outbound.verdict, reasons: gated.outbound.reasons },
    ...(watermark ? { watermark } : {}),
  };
}

/**
 * Gates a request's line events on their way to a sink (the SSE stream, a library `emit`).
 * After a blocked stream only the closing `final` (gated) is sent.
 */
export class LineEventEgress {
  readonly #gate: EgressGate;
  readonly #out: (e: GatedLineEvent) => void;
  readonly #agents: AgentEventEgress;

  constructor(gate: EgressGate, out: (e: GatedLineEvent) => void) {
    this.#gate = gate;
    this.#out = out;
    this.#agents = new AgentEventEgress(gate, (event) => out({ type: 'agent', event }));
  }

  get blocked(): boolean {
    return this.#agents.blocked !== undefined;
  }

  accept(e: LineEvent): void {
    if (e.type === 'agent') {
      this.#agents.accept(e.event);
      return;
    }
    // Text an agent still holds belongs before whatever the line reports next.
    const open = this.#agents.end();
    if (!open && e.type !== 'final') return;
    const g = this.#gate;
    switch (e.type) {
      case 'routed':
      case 'input_flagged':
      case 'task_accepted':
        this.#out(e);
        return;
      case 'plan':
        this.#out({ ...e, steps: g.value(e.steps) });
        return;
      case 'step_started':
        this.#out({ ...e, goal: g.value(e.goal) });
        return;
      case 'step_finished':
        this.#out({ ...e, summary: g.text(e.summary) });
        return;
      case 'degraded':
        this.#out({ ...e, reason: g.value(e.reason) });
        return;
      case 'final':
        this.#out({ ...e, text: g.text(e.text) });
        return;
      default: {
        const unknown: never = e;
        throw new TypeError(`line event ${(unknown as { type: string }).type} has no egress rule`);
      }
    }
  }

  /** Releases whatever is still held (the request is over). */
  end(): void {
    this.#agents.end();
  }
}
