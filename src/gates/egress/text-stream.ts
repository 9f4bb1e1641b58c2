/**
 * The streaming half of the egress gate (docs/gates.md, "Streaming boundary rule"): text deltas
 * are held back until a safe cut, then the released piece is classified and redacted exactly as
 * the whole text would be. Pure: no I/O.
 */
import { type DataLevel, TwinlineError } from '../../core/index.js';
import {
  classifyOutbound,
  countsAsOutboundPii,
  OutboundTracker,
  type OutboundVerdict,
} from '../output/exfiltration.js';
import { scanPii } from '../output/pii/find.js';
import { hiddenFrom, maskSlice, type TextRedactionPolicy } from '../output/pii/redact-text.js';

/** How much a stream holds back (docs/gates.md, "Streaming boundary rule"). */
export interface StreamGateOptions {
  /**
   * Characters always held behind the newest text, so a value that crosses a cut (a name after
   * "Dr. ", a number written across a line break) is whole before anything of it is released.
   * Values longer than this across a sentence end are the one case a cut can split. Default 96.
   */
  readonly holdBack?: number;
  /** Most characters held without a sentence or line end before a cut is forced. Default 384. */
  readonly maxHold?: number;
}

export const DEFAULT_HOLD_BACK = 96;
export const DEFAULT_MAX_HOLD = 384;

/**
 * Text kept before the release point: the PII patterns' look-behinds and context words (40
 * characters) and the injection scanner's exfiltration phrases (up to ~150) read it.
 */
const KEEP = 200;

/** The gate's settings were impossible (hold-back not below the window). */
export class StreamGateConfigError extends TwinlineError {}

/** After these a sentence (or a line) has ended. */
const HARD_END = new Set(['\n', '。', '！', '？', '；', '…']);
/** These end a sentence when whitespace follows. */
const SOFT_END = new Set(['.', '!', '?', ';', ':']);
/** Where a forced cut may fall when no sentence ends inside the window. */
const WEAK_END = new Set([' ', '\t', '\r', '，', '、', ',', '：']);

/** Whether a cut before `text[i]` falls at a sentence or line end. */
function sentenceEndAt(text: string, i: number): boolean {
  const c = text[i - 1]!;
  if (HARD_END.has(c)) return true;
  return (c === ' ' || c === '\t' || c === '\r') && i > 1 && SOFT_END.has(text[i - 2]!);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * One stream of text deltas → released pieces, redacted for the viewer. `push` returns what may
 * be released now (often nothing); `end` releases the rest. An outbound verdict of `block`,
 * mid-stream or on the whole text at the end, stops the stream: nothing more is released.
 */
export class TextStreamGate {
  readonly #holdBack: number;
  readonly #maxHold: number;
  readonly #hidden: ReturnType<typeof hiddenFrom>;
  readonly #internal: readonly string[];
  readonly #tracker: OutboundTracker;
  /** The raw text from absolute offset #bufStart on. */
  #buf = '';
  #bufStart = 0;
  /** Absolute offset up to which text has been released (or withheld by a block). */
  #released = 0;
  /** Sentence ends after #released not yet used for a cut (absolute offsets, ascending). */
  #ends: number[] = [];
  readonly #parts: string[] = [];
  #blocked: OutboundVerdict | undefined;
  #verdict: OutboundVerdict | undefined;

  constructor(
    viewerLevel: DataLevel,
    options: StreamGateOptions & {
      readonly internalDomains?: readonly string[];
      readonly textPolicy?: Partial<TextRedactionPolicy>;
    } = {},
  ) {
    this.#holdBack = options.holdBack ?? DEFAULT_HOLD_BACK;
    this.#maxHold = options.maxHold ?? DEFAULT_MAX_HOLD;
    if (!Number.isInteger(this.#holdBack) || this.#holdBack < 0) {
      throw new StreamGateConfigError('egress.hold-back', 'holdBack must be a whole number ≥ 0', {
        where: 'egress.stream.holdBack',
      });
    }
    if (!Number.isInteger(this.#maxHold) || this.#maxHold <= this.#holdBack) {
      throw new StreamGateConfigError('egress.max-hold', 'maxHold must be a whole number above holdBack', {
        where: 'egress.stream.maxHold',
      });
    }
    this.#hidden = hiddenFrom(viewerLevel, options.textPolicy);
    this.#internal = options.internalDomains ?? [];
    this.#tracker = new OutboundTracker({ internalDomains: this.#internal });
  }

  /** The verdict that stopped the stream, if one did. */
  get blocked(): OutboundVerdict | undefined {
    return this.#blocked;
  }

  /** The verdict on the whole text, once `end` has run without a block. */
  get verdict(): OutboundVerdict | undefined {
    return this.#verdict;
  }

  /** Takes a delta; returns the redacted text that may leave now ('' while it is held). */
  push(delta: string): string {
    if (this.#blocked || this.#verdict || delta.length === 0) return '';
    this.#parts.push(delta);
    const seamAt = this.#bufStart + this.#buf.length;
    this.#buf += delta;
    const end = this.#bufStart + this.#buf.length;
    // Only a cut before a new character can be a new sentence end (one at the seam was seen).
    for (let i = Math.max(seamAt + 1, this.#released + 1); i <= end; i++) {
      if (sentenceEndAt(this.#buf, i - this.#bufStart)) this.#ends.push(i);
    }
    const limit = end - this.#holdBack;
    let cut = -1;
    for (const e of this.#ends) {
      if (e > limit) break;
      cut = e;
    }
    if (cut < 0 && end - this.#released >= this.#maxHold) cut = this.#forcedCut(limit);
    return cut > this.#released ? this.#release(cut, false) : '';
  }

  /** The stream is complete: releases the rest (unless the whole text is blocked). */
  end(): string {
    if (this.#blocked || this.#verdict) return '';
    const whole = classifyOutbound(this.#parts.join(''), { internalDomains: this.#internal });
    if (whole.verdict === 'block') {
      this.#blocked = whole;
      return '';
    }
    const rest = this.#release(this.#bufStart + this.#buf.length, true);
    this.#verdict = whole;
    return rest;
  }

  /** A cut for a window that holds no sentence end: at the last space or comma, else anywhere. */
  #forcedCut(limit: number): number {
    for (let i = limit; i > this.#released; i--) {
      if (WEAK_END.has(this.#buf[i - 1 - this.#bufStart]!)) return i;
    }
    const rel = limit - this.#bufStart;
    return limit > 0 && isHighSurrogate(this.#buf.charCodeAt(rel - 1)) ? limit - 1 : limit;
  }

  #release(cutAt: number, final: boolean): string {
    const from = this.#released - this.#bufStart;
    let cut = cutAt - this.#bufStart;
    const scan = scanPii(this.#buf, { from });
    if (!final) {
      // Never cut through anything a pattern matched: its value would be judged in two halves.
      for (let moved = true; moved; ) {
        moved = false;
        for (const s of scan.spans) {
          if (s.start < cut && cut < s.end) {
            cut = s.start;
            moved = true;
          }
        }
      }
      if (cut <= from) return '';
    }
    const inside = scan.findings.filter((f) => f.start >= from && f.end <= cut);
    if (!final) {
      const window = this.#buf.slice(Math.max(0, from - KEEP), cut);
      const verdict = this.#tracker.add(window, inside.filter(countsAsOutboundPii).length);
      if (verdict.verdict === 'block') {
        this.#blocked = verdict;
        return '';
      }
    }
    const out = maskSlice(this.#buf, inside.filter(this.#hidden), from, cut);
    this.#released = this.#bufStart + cut;
    this.#ends = this.#ends.filter((e) => e > this.#released);
    // Keep only what the next scan reads before the release point.
    const drop = cut - KEEP;
    if (drop > KEEP) {
      this.#buf = this.#buf.slice(drop);
      this.#bufStart += drop;
    }
    return out;
  }
}
