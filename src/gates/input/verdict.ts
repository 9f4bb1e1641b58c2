import type { Channel } from './combine.js';

/** `pass` continues automatically; `review` goes to a person; `block` is refused outright. */
export type ScanVerdict = 'pass' | 'review' | 'block';

/** Score cut-offs: `score >= review` → review, `score >= block` → block. */
export interface Thresholds {
  readonly review: number;
  readonly block: number;
}

/**
 * Tool output is scanned more eagerly (lower review cut-off): a false review there costs a
 * quoted-and-annotated document, not a refused user request.
 */
export const DEFAULT_THRESHOLDS: Readonly<Record<Channel, Thresholds>> = {
  user_input: { review: 0.5, block: 0.85 },
  tool_output: { review: 0.4, block: 0.85 },
};

export function verdictFor(score: number, t: Thresholds): ScanVerdict {
  if (score >= t.block) return 'block';
  if (score >= t.review) return 'review';
  return 'pass';
}
