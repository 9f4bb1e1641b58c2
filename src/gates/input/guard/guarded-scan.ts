import { type ScanOptions, type ScanResult, scanText } from '../scan.js';
import { DEFAULT_THRESHOLDS, verdictFor } from '../verdict.js';
import type { GuardClient, GuardOutcome } from './guard-client.js';

export interface GuardedScanResult extends ScanResult {
  /** The embedded scorer's own result. */
  readonly embedded: ScanResult;
  /** What the guard model said, or why it could not (then the result is the embedded one). */
  readonly guard: GuardOutcome;
}

/**
 * Scans with the embedded scorer and the guard model together: the score is the higher of the
 * two (the guard can raise suspicion, and the embedded scorer's floor stays), the verdict follows
 * from it with the same thresholds. A guard that fails leaves the embedded result unchanged.
 */
export async function scanWithGuard(
  text: string,
  guard: GuardClient,
  options: ScanOptions = {},
): Promise<GuardedScanResult> {
  const channel = options.channel ?? 'user_input';
  const embedded = scanText(text, options);
  const outcome = await guard.score(text, channel);
  if (!outcome.ok || outcome.score <= embedded.score) return { ...embedded, embedded, guard: outcome };
  const thresholds = options.thresholds?.[channel] ?? DEFAULT_THRESHOLDS[channel];
  const score = Math.round(outcome.score * 1000) / 1000;
  return {
    verdict: verdictFor(score, thresholds),
    score,
    findings: [
      ...embedded.findings,
      {
        type: 'guard_model',
        start: 0,
        end: text.length,
        score,
        reason: `guard model ${outcome.model}: ${outcome.label}`,
        rule: `guard.${guard.config.format}`,
      },
    ],
    embedded,
    guard: outcome,
  };
}
