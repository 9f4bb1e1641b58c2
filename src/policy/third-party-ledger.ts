import type { ThirdPartyTextLedger } from '../gateway/types.js';

export interface ShingleLedgerOptions {
  /** Length (in normalised characters) of the runs compared. Shorter runs are never flagged. */
  readonly minRun?: number;
  /** Upper bound on indexed runs; the oldest texts are forgotten first. */
  readonly maxEntries?: number;
}

const ZERO_WIDTH = /[\u200b-\u200f\u2060\ufeff\u00ad]|\p{Variation_Selector}/gu;

/** Case-, width- and whitespace-insensitive form, so trivial edits don't hide copied text. */
export function normaliseForMatch(text: string): string {
  return text.normalize('NFKC').replace(ZERO_WIDTH, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Remembers third-party text (tool output, fetched pages) as overlapping fixed-length runs
 * ("shingles") in a hash map, so `findOrigin` costs one lookup per character of the value,
 * independent of how much text was seen. Runs the user wrote themselves (`addTrusted`) are not
 * counted as third-party: the check is for text that *only* appeared in tool output.
 */
export class ShingleLedger implements ThirdPartyTextLedger {
  readonly minRun: number;
  private readonly maxEntries: number;
  private readonly origin = new Map<string, string>();
  private readonly trusted = new Set<string>();
  private readonly texts: string[][] = [];
  private entries = 0;

  constructor(options: ShingleLedgerOptions = {}) {
    this.minRun = options.minRun ?? 16;
    this.maxEntries = options.maxEntries ?? 2_000_000;
  }

  add(text: string, source: string): void {
    const keys: string[] = [];
    for (const run of this.runs(text)) {
      if (!this.origin.has(run)) {
        this.origin.set(run, source);
        keys.push(run);
      }
    }
    this.texts.push(keys);
    this.entries += keys.length;
    while (this.entries > this.maxEntries && this.texts.length > 1) {
      const old = this.texts.shift() ?? [];
      for (const k of old) this.origin.delete(k);
      this.entries -= old.length;
    }
  }

  /** Text the user wrote (their messages): its runs are never reported as third-party. */
  addTrusted(text: string): void {
    for (const run of this.runs(text)) this.trusted.add(run);
  }

  findOrigin(value: string): string | undefined {
    for (const run of this.runs(value)) {
      const source = this.origin.get(run);
      if (source !== undefined && !this.trusted.has(run)) return source;
    }
    return undefined;
  }

  private *runs(text: string): Generator<string> {
    const n = normaliseForMatch(text);
    for (let i = 0; i + this.minRun <= n.length; i++) yield n.slice(i, i + this.minRun);
  }
}
