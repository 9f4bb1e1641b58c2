/**
 * Repeated frames in the hand-written set. A writer asked for hundreds of texts falls into
 * habits — the same opening words over and over ("ignore the draft I sent…", "帮我把…") — and a
 * frame repeated forty times outweighs the few canonical attacks that share its words, so the
 * scorer learns the habit instead of the label (docs/gates.md "Learned scorer"). A frame is a
 * writer's row label, channel and first three words; a row whose frame its writer used n times
 * counts 1/√n: the frame as a whole then weighs √n rows, not n. User input only: a document's
 * opening (a mail header, a date) is its format, not a habit of wording.
 */
import { wordTokens } from '../../src/core/index.js';
import type { LabelledText } from './vectorize.js';

const FRAME_WORDS = 3;

/** The frame key of a written user input, or undefined for any other row. */
export function frameOf(r: LabelledText): string | undefined {
  if (r.source !== 'written' || r.channel !== 'user_input') return undefined;
  const head = wordTokens(r.text.toLowerCase().slice(0, 200)).slice(0, FRAME_WORDS).join(' ');
  return `${r.hand ?? '-'}\u0000${r.label}\u0000${r.channel}\u0000${head}`;
}

/** Per-row weight multipliers (1/√uses of the row's frame) for the written rows among `rows`. */
export function frameWeights(rows: readonly LabelledText[]): (r: LabelledText) => number {
  const uses = new Map<string, number>();
  for (const r of rows) {
    const k = frameOf(r);
    if (k !== undefined) uses.set(k, (uses.get(k) ?? 0) + 1);
  }
  return (r) => {
    const k = frameOf(r);
    return k === undefined ? 1 : 1 / Math.sqrt(uses.get(k) ?? 1);
  };
}
