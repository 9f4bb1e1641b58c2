import type { ReviewItem } from '../store/index.js';

/** How a review ended, as the task parked on it learns it. */
export interface EndedReview {
  readonly status: 'executed' | 'failed' | 'denied' | 'expired';
  /** What the model may read of it: the call's result, or why it did not run. */
  readonly summary: string;
}

/**
 * The end of a review, or undefined while it can still change (pending, approved, executing).
 * Pure: the same record gives every reader (approver, parked run, sweep) the same outcome.
 */
export function endedReview(item: ReviewItem): EndedReview | undefined {
  switch (item.status) {
    case 'executed':
    case 'failed':
      return { status: item.status, summary: item.resultSummary ?? item.status };
    case 'denied':
      return {
        status: 'denied',
        summary: item.decisionNote ?? `denied by ${item.decidedBy ?? 'a reviewer'}`,
      };
    case 'expired':
      return { status: 'expired', summary: `no reviewer decided before ${item.expiresAt}` };
    default:
      return undefined;
  }
}
