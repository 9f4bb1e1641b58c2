/**
 * The one function that lets text leave the system (docs/gates.md, "Egress"): every door — the
 * HTTP API and its SSE stream, the stream-json engine, the CLI, review responses — hands the text
 * it is about to send to an {@link EgressGate} bound to the viewer, the session and the channel.
 * Pure: no I/O.
 */
import type { DataLevel } from '../../core/index.js';
import { classifyOutbound, type OutboundVerdict } from '../output/exfiltration.js';
import { redactText, type TextRedactionPolicy } from '../output/pii/redact-text.js';
import {
  embedWatermark,
  type WatermarkChannels,
  type WatermarkMode,
  watermarkModeFor,
  watermarkToken,
} from '../watermark/index.js';
import { dropHidingCharacters, HidingCharacterFilter } from './hiding-characters.js';
import { type StreamGateOptions, TextStreamGate } from './text-stream.js';

export interface EgressOptions {
  /** The deployment's watermark key; each tenant's keys derive from it. */
  readonly watermarkKey: string;
  /** Domains inside the organisation: addresses there are not "outside". */
  readonly internalDomains?: readonly string[];
  /**
   * How each channel carries the watermark (config `watermark`): `text` (default) — invisible, in
   * free text; `field` — only the token beside the answer; `off`. Text is classified and redacted
   * whatever the mode.
   */
  readonly watermarkChannels?: WatermarkChannels;
  /** Lowest data level per PII type (default: docs/gates.md, "PII recognisers"). */
  readonly textPolicy?: Partial<TextRedactionPolicy>;
  /** How much streamed text is held back before it is released. */
  readonly stream?: StreamGateOptions;
}

/** Whoever receives the text: what they may see is decided by their data level. */
export interface EgressViewer {
  readonly tenant: string;
  readonly user: string;
  readonly dataLevel: DataLevel;
}

/** Who receives text, in which session, through which door. */
export interface EgressScope {
  readonly viewer: EgressViewer;
  readonly sessionId: string;
  /** The door: `api`, `sse`, `stream-json`, `cli`, `review`, … (recorded in the watermark). */
  readonly channel: string;
}

/** A gated text and the outbound verdict that shaped it. */
export interface GatedText {
  readonly text: string;
  readonly outbound: OutboundVerdict;
}

/** A stream the outbound classifier stopped: what the viewer is told instead. */
export interface BlockedOutput {
  /** The gated sentence that replaces the answer. */
  readonly text: string;
  readonly outbound: OutboundVerdict;
}

/** The gate's settings: built once per deployment, bound per viewer with {@link Egress.for}. */
export class Egress {
  readonly #options: EgressOptions;

  constructor(options: EgressOptions) {
    this.#options = options;
  }

  get options(): EgressOptions {
    return this.#options;
  }

  /** The gate for one viewer, session and channel. */
  for(scope: EgressScope): EgressGate {
    return new EgressGate(
      this.#options,
      scope,
      watermarkModeFor(this.#options.watermarkChannels, scope.channel),
    );
  }
}

/** Watermark fields are at most 255 bytes: a longer session id is marked by its first bytes. */
function fitField(value: string): string {
  if (value.length <= 63 || utf8.encode(value).length <= 255) return value;
  let s = value.slice(0, 255);
  while (utf8.encode(s).length > 255) s = s.slice(0, -1);
  return s;
}

const utf8 = new TextEncoder();

/**
 * The egress gate of one scope. `text` gates a complete text (outbound classifier: block → the
 * withheld sentence, flag → a note; PII redacted for the viewer's level; watermark); `value`
 * walks a JSON value and gates its strings without a watermark, keeping its structure;
 * `stream` opens a streaming gate for text that arrives in deltas; `token` is the watermark a
 * structured answer carries in a field instead.
 */
export class EgressGate {
  readonly #options: EgressOptions;
  readonly scope: EgressScope;
  readonly #mode: WatermarkMode;
  readonly #mark: { tenant: string; user: string; session: string; channel: string };

  constructor(options: EgressOptions, scope: EgressScope, mode: WatermarkMode) {
    this.#options = options;
    this.scope = scope;
    this.#mode = mode;
    this.#mark = {
      tenant: fitField(scope.viewer.tenant),
      user: fitField(scope.viewer.user),
      session: fitField(scope.sessionId),
      channel: fitField(scope.channel),
    };
  }

  /**
   * The session watermark as a token (`twm2.…`, opaque without the tenant's key) for a field beside
   * the answer — the only mark of a JSON answer — or undefined when the channel has marks off.
   */
  token(): string | undefined {
    return this.#mode === 'off' ? undefined : watermarkToken(this.#mark, { key: this.#options.watermarkKey });
  }

  /** A complete text as the viewer may receive it. */
  text(text: string): string {
    return this.inspect(text).text;
  }

  /**
   * {@link text}, with the outbound verdict. A text that is a JSON object or array (structured
   * output, a tool's result) stays valid JSON, the same value but for its gated strings: it gets
   * no mark in the text (its mark is {@link token}); a flag is reported in the verdict, not appended.
   */
  inspect(text: string): GatedText {
    text = dropHidingCharacters(text);
    const outbound = classifyOutbound(text, { internalDomains: this.#options.internalDomains ?? [] });
    if (outbound.verdict === 'block') {
      return { text: this.#marked(this.#redact(withheldSentence(outbound))), outbound };
    }
    const json = parseJsonDocument(text);
    if (json !== undefined) {
      return {
        text: JSON.stringify(this.#walk(json.value, 0), null, json.indented ? 2 : undefined),
        outbound,
      };
    }
    let out = this.#redact(text);
    if (outbound.verdict === 'flag') out += this.#redact(flagNote(outbound));
    return { text: this.#marked(out), outbound };
  }

  /**
   * A JSON value with every string gated (classified and redacted, not watermarked: ids, dates
   * and names in it stay usable). Objects and arrays keep their shape and keys.
   */
  value<T>(value: T): T {
    return this.#walk(value, 0) as T;
  }

  /**
   * A streaming gate: push deltas, release what it returns, `end` at the end of the text. A text
   * that opens with `{` or `[` is held whole and gated as a JSON document at the end, so
   * structured output stays parseable.
   */
  stream(): EgressStream {
    return new EgressStream(
      new TextStreamGate(this.scope.viewer.dataLevel, {
        ...this.#options.stream,
        ...(this.#options.internalDomains ? { internalDomains: this.#options.internalDomains } : {}),
        ...(this.#options.textPolicy ? { textPolicy: this.#options.textPolicy } : {}),
      }),
      this,
    );
  }

  /** The marked, redacted sentence that replaces a blocked text. */
  withheld(outbound: OutboundVerdict): string {
    return this.#marked(this.#redact(withheldSentence(outbound)));
  }

  /** The marked piece of a stream (already redacted by the stream gate), with a flag's note. */
  piece(redacted: string, flagged?: OutboundVerdict): string {
    return this.#marked(flagged ? redacted + this.#redact(flagNote(flagged)) : redacted);
  }

  #walk(v: unknown, depth: number): unknown {
    if (typeof v === 'string') return this.#gateString(v);
    // Deeper than any tool output or argument we send: refused rather than recursed into.
    if (depth > 64) return '[withheld: value nested too deeply]';
    if (Array.isArray(v)) return v.map((x) => this.#walk(x, depth + 1));
    if (v !== null && typeof v === 'object') {
      const proto = Object.getPrototypeOf(v);
      // Anything but a plain object (a Date, a class instance) leaves as its JSON form, gated.
      if (proto !== Object.prototype && proto !== null) return this.#walk(jsonForm(v), depth + 1);
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = this.#walk(x, depth + 1);
      return out;
    }
    return v;
  }

  #gateString(s: string): string {
    if (s.length < 4) return s;
    s = dropHidingCharacters(s);
    const outbound = classifyOutbound(s, { internalDomains: this.#options.internalDomains ?? [] });
    return this.#redact(outbound.verdict === 'block' ? withheldSentence(outbound) : s);
  }

  #redact(text: string): string {
    return redactText(text, this.scope.viewer.dataLevel, {
      ...(this.#options.textPolicy ? { policy: this.#options.textPolicy } : {}),
    }).text;
  }

  #marked(text: string): string {
    if (this.#mode !== 'text' || text.length === 0) return text;
    return embedWatermark(text, this.#mark, { key: this.#options.watermarkKey });
  }
}

/** What JSON.stringify would send for `v` (a value that cannot be serialised is withheld). */
function jsonForm(v: object): unknown {
  try {
    const text = JSON.stringify(v);
    return text === undefined ? null : (JSON.parse(text) as unknown);
  } catch {
    return '[withheld: value not serialisable]';
  }
}

/** The value of a text that is one JSON object or array, and whether it was laid out on lines. */
function parseJsonDocument(text: string): { value: unknown; indented: boolean } | undefined {
  const head = text.trimStart()[0];
  if (head !== '{' && head !== '[') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? { value, indented: text.includes('\n') } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A text released as it streams. `push` returns the gated text that may be sent now (often '');
 * `end` returns the rest, with the classifier's note when the whole text was flagged. Once
 * `blocked` is set nothing more is released: send `blocked.text` and stop.
 */
export class EgressStream {
  readonly #gate: TextStreamGate;
  readonly #egress: EgressGate;
  readonly #hiding = new HidingCharacterFilter();
  /** undefined until the first visible character says whether this is a JSON document. */
  #json: boolean | undefined;
  #held = '';
  #blocked: BlockedOutput | undefined;

  constructor(gate: TextStreamGate, egress: EgressGate) {
    this.#gate = gate;
    this.#egress = egress;
  }

  get blocked(): BlockedOutput | undefined {
    if (!this.#blocked && this.#gate.blocked) {
      const outbound = this.#gate.blocked;
      this.#blocked = { text: this.#egress.withheld(outbound), outbound };
    }
    return this.#blocked;
  }

  push(delta: string): string {
    return this.#push(this.#hiding.push(delta));
  }

  #push(delta: string): string {
    if (this.#json === undefined) {
      this.#held += delta;
      const head = this.#held.trimStart()[0];
      if (head === undefined) return '';
      this.#json = head === '{' || head === '[';
      if (this.#json) return '';
      delta = this.#held;
      this.#held = '';
    } else if (this.#json) {
      this.#held += delta;
      return '';
    }
    return this.#egress.piece(this.#gate.push(delta));
  }

  end(): string {
    const tail = this.#hiding.end();
    const last = tail ? this.#push(tail) : '';
    return last + this.#end();
  }

  #end(): string {
    if (this.#json !== false) {
      if (this.#blocked) return '';
      const whole = this.#egress.inspect(this.#held);
      this.#held = '';
      if (whole.outbound.verdict === 'block') {
        this.#blocked = { text: whole.text, outbound: whole.outbound };
        return '';
      }
      return whole.text;
    }
    const rest = this.#gate.end();
    const verdict = this.#gate.verdict;
    if (rest === '' && verdict?.verdict !== 'flag') return '';
    return this.#egress.piece(rest, verdict?.verdict === 'flag' ? verdict : undefined);
  }
}

/** What replaces an answer the outbound classifier blocked. */
export function withheldSentence(v: OutboundVerdict): string {
  const where =
    v.destinations.length > 0
      ? `it directed data to an outside destination (${v.destinations.slice(0, 3).join(', ')})`
      : `it directed data outside (${v.reasons.slice(0, 2).join('; ')})`;
  return `The answer was withheld by the output gate: ${where}.`;
}

/** What follows an answer the outbound classifier flagged. */
export function flagNote(v: OutboundVerdict): string {
  return `\n\n[Output gate: this answer mentions sending data outside (${v.reasons.slice(0, 2).join('; ')}); check before acting on it.]`;
}
