import type { ReviewRequest, ToolCallReview } from '../store/index.js';

/** A call held for a human reviewer, as the gateway hands it to the review queue (the store's shape). */
export type QueuedReview = ReviewRequest & { readonly tenant: string };

/** Where `review` verdicts go. The store implements it. */
export interface ReviewQueue {
  enqueue(item: QueuedReview): Promise<{ id: string }>;
}

/** An approved review as the gateway needs it to run the call. */
export type ApprovedReview = Pick<
  ToolCallReview,
  'id' | 'tenant' | 'user' | 'sessionId' | 'agent' | 'domain' | 'tool' | 'args' | 'identity' | 'taskId'
>;

/** The store side of running approved reviews exactly once. */
export interface ReviewExecutionLedger {
  /** Atomically moves an approved review to `executing`; true for exactly one caller. */
  claimForExecution(id: string): Promise<boolean>;
  complete(id: string, outcome: { status: 'executed' | 'failed'; resultSummary: string }): Promise<unknown>;
}
