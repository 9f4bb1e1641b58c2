import type { Identity, StageDecision } from '../core/index.js';

/** A call held for a human reviewer, as the gateway hands it to the review queue. */
export interface QueuedReview {
  readonly tenant: string;
  readonly user: string;
  readonly sessionId: string;
  readonly agent: string;
  readonly domain: string;
  readonly tool: string;
  readonly args: unknown;
  /** Identity snapshot at enqueue time; an approved review runs as this identity. */
  readonly identity: Identity;
  readonly reason: string;
  readonly decisionPath: readonly StageDecision[];
  /** ISO-8601 time after which the review can no longer be approved. */
  readonly expiresAt: string;
}

/** Where `review` verdicts go. The store implements it. */
export interface ReviewQueue {
  enqueue(item: QueuedReview): Promise<{ id: string }>;
}

/** An approved review as the gateway needs it to run the call. */
export interface ApprovedReview {
  readonly id: string;
  readonly tenant: string;
  readonly user: string;
  readonly sessionId: string;
  readonly agent: string;
  readonly domain: string;
  readonly tool: string;
  readonly args: unknown;
  readonly identity: Identity;
}

/** The store side of running approved reviews exactly once. */
export interface ReviewExecutionLedger {
  /** Atomically moves an approved review to `executing`; true for exactly one caller. */
  claimForExecution(id: string): Promise<boolean>;
  complete(id: string, outcome: { status: 'executed' | 'failed'; resultSummary: string }): Promise<unknown>;
}
