import type { Identity, StageDecision } from '../core/index.js';
import type { Egress } from '../gates/index.js';
import type { GatewayResult } from '../gateway/index.js';
import type { RequestResult } from '../lines/index.js';
import { approvalDecision, type EndedReview, lostClaim, type ReviewReplayer } from '../review/index.js';
import type { ReviewItem, ReviewRepository, ReviewStatus, ToolCallReview } from '../store/index.js';
import type { TaskScheduler } from './task-scheduler.js';

/** What running approved reviews needs (docs/architecture.md, "Platform"). */
export interface ApprovedReviewExecutorDeps {
  /** Replays an approved call on the replay gateway of its line, as the requester is now. */
  readonly replayer: ReviewReplayer;
  /** A tenant's reviews (`store.forTenant(t).reviews`). */
  readonly reviewsFor: (tenant: string) => ReviewRepository;
  /** Every tenant's reviews (`store.admin.reviews`), for the sweep. */
  readonly allReviews: ReviewRepository;
  /** Continues the deep task a review belongs to. */
  readonly scheduler: Pick<TaskScheduler, 'continueAfter'>;
  readonly resolveIdentity: (tenant: string, user: string) => Identity | undefined;
  /** Runs a request a reviewer cleared, as its author, on the normal path. */
  readonly runCleared: (author: Identity, query: string, sessionId: string) => Promise<RequestResult>;
  readonly egress: Egress;
}

/** What running an approved review did (undefined when another party claimed it first). */
export type Execution =
  | {
      readonly kind: 'tool_call';
      readonly status: ReviewStatus;
      readonly result: GatewayResult;
      /** The deep task that continues after this review. */
      readonly resumedTask?: string;
    }
  | {
      readonly kind: 'input';
      readonly status: 'executed' | 'failed';
      /** The cleared request's result; undefined when its author has left the directory. */
      readonly result?: RequestResult;
    };

/**
 * Runs approved reviews, each exactly once, and carries the outcome forward (docs/architecture.md,
 * "Platform"): an approved tool call replays through its line's review-replay gateway (which
 * claims it and decides it again) and its deep task continues by the task id on the review; a
 * cleared input is claimed and runs as its author. The approver and the sweep come here alike, so
 * a review an approver's process approved but never ran is run by the next sweep.
 */
export class ApprovedReviewExecutor {
  constructor(private readonly deps: ApprovedReviewExecutorDeps) {}

  execute(item: ReviewItem, approval: StageDecision): Promise<Execution | undefined> {
    return item.kind === 'input' ? this.#runInput(item) : this.#runCall(item, approval);
  }

  /**
   * Runs every approved review no one ran (the sweep): each review's id and how it ended, and the
   * deep task that continued after it.
   */
  async sweep(limit = 100): Promise<{ id: string; status: string; resumedTask?: string }[]> {
    const ran: { id: string; status: string; resumedTask?: string }[] = [];
    for (const item of await this.deps.allReviews.list({ status: 'approved', limit })) {
      // One review whose run throws (its claim taken, so it is not run again) leaves the rest to run.
      const exec = await this.execute(item, approvalDecision(item, undefined)).catch(() => undefined);
      if (!exec) continue;
      const resumedTask = exec.kind === 'tool_call' ? exec.resumedTask : undefined;
      ran.push({ id: item.id, status: exec.status, ...(resumedTask ? { resumedTask } : {}) });
    }
    return ran;
  }

  /**
   * The task the review belongs to, continued with how it ended; its id when this call moved it
   * on. A review queued before reviews named their task has none: the sweep wakes its task
   * (`TaskScheduler.wake`).
   */
  continueTask(item: ToolCallReview, ended: EndedReview): Promise<string | undefined> {
    if (!item.taskId) return Promise.resolve(undefined);
    return this.deps.scheduler.continueAfter(item.tenant, item.taskId, item.id, ended);
  }

  async #runCall(item: ToolCallReview, approval: StageDecision): Promise<Execution | undefined> {
    const result = await this.deps.replayer.replay(item, approval);
    // Losing the claim to another approver (or process) is not an execution of ours.
    if (lostClaim(result)) return undefined;
    const resumedTask = await this.continueTask(item, {
      status: result.status === 'executed' ? 'executed' : 'failed',
      summary: result.modelContent,
    });
    const status = (await this.deps.reviewsFor(item.tenant).get(item.id))?.status ?? item.status;
    return { kind: 'tool_call', status, result, ...(resumedTask ? { resumedTask } : {}) };
  }

  async #runInput(item: ReviewItem & { kind: 'input' }): Promise<Execution | undefined> {
    const reviews = this.deps.reviewsFor(item.tenant);
    if (!(await reviews.claimForExecution(item.id))) return undefined;
    // The reviewer vouched for the text; it now takes the normal path as its author.
    const author = this.deps.resolveIdentity(item.tenant, item.user);
    const result = author ? await this.deps.runCleared(author, item.query, item.sessionId) : undefined;
    const status = result ? 'executed' : 'failed';
    await reviews.complete(item.id, {
      status,
      // Stored gated for the lowest level before it is cut: a value cut in half is no longer
      // recognised by the gate that runs when the summary is read, nor a steer to an address.
      resultSummary: result
        ? `${result.outcome}: ${this.#storedSummary(item.tenant, item.sessionId, result.text)}`
        : 'author no longer exists',
    });
    return { kind: 'input', status, ...(result ? { result } : {}) };
  }

  /** Text kept in the store for anyone to read later: gated for level L1, unmarked, cut short. */
  #storedSummary(tenant: string, sessionId: string, text: string): string {
    return this.deps.egress
      .for({ viewer: { tenant, user: 'store', dataLevel: 'L1' }, sessionId, channel: 'review' })
      .value(text)
      .slice(0, 200);
  }
}
