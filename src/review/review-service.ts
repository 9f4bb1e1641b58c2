import type { ApprovedReview, GatewayResult } from '../gateway/index.js';
import type { ReviewerSet } from '../policy/index.js';
import type { ReviewItem, ReviewRepository, ReviewStatus } from '../store/index.js';

/** The one gateway operation the review service needs. */
export interface ApprovedReviewRunner {
  executeApprovedReview(review: ApprovedReview): Promise<GatewayResult>;
}

export interface ReviewServiceOptions {
  readonly reviews: ReviewRepository;
  /** Absent: approvals are recorded, and executed later by a process that has a gateway. */
  readonly gateway?: ApprovedReviewRunner;
  /** Rule-based reviewers (reviewers.yaml); absent means humans decide everything. */
  readonly reviewers?: ReviewerSet;
  readonly now?: () => Date;
  /** Name recorded as `decidedBy` for rule-based decisions. */
  readonly autoReviewerName?: string;
}

export interface DecisionOutcome {
  readonly id: string;
  /** True when this call changed the review (pending → approved|denied). */
  readonly decided: boolean;
  /** The review's status afterwards. */
  readonly status: ReviewStatus | 'missing';
  /** The execution, when this call ran the approved review. */
  readonly execution?: GatewayResult;
}

export interface ProcessReport {
  readonly expired: number;
  readonly autoDecided: readonly { id: string; decision: 'approve' | 'deny'; ruleId: string }[];
  readonly executed: readonly { id: string; status: string }[];
}

/**
 * The review queue as a service: expires stale reviews, lets rule-based reviewers decide what
 * they can, records human decisions, and runs approved calls through the gateway — which claims
 * each review in the store first, so however many approvals or workers race, a call runs once,
 * with the arguments and identity it was queued with.
 */
export class ReviewService {
  readonly #reviews: ReviewRepository;
  readonly #gateway: ApprovedReviewRunner | undefined;
  readonly #reviewers: ReviewerSet | undefined;
  readonly #now: () => Date;
  readonly #autoName: string;

  constructor(options: ReviewServiceOptions) {
    this.#reviews = options.reviews;
    this.#gateway = options.gateway;
    this.#reviewers = options.reviewers;
    this.#now = options.now ?? (() => new Date());
    this.#autoName = options.autoReviewerName ?? 'auto-reviewer';
  }

  list(filter: { tenant?: string; status?: ReviewStatus; limit?: number } = {}): Promise<ReviewItem[]> {
    return this.#reviews.list(filter);
  }

  get(id: string): Promise<ReviewItem | undefined> {
    return this.#reviews.get(id);
  }

  /** Approves a pending review and runs it (at most once, whoever else approves or runs it). */
  async approve(id: string, by: string, note?: string): Promise<DecisionOutcome> {
    const { changed } = await this.#reviews.decide(
      id,
      { decision: 'approved', by, ...(note !== undefined ? { note } : {}) },
      this.#now(),
    );
    const item = await this.#reviews.get(id);
    if (!item) return { id, decided: false, status: 'missing' };
    // An approved-but-unclaimed review (e.g. the approver crashed before running it) is run by
    // the next approval or sweep; the store's claim keeps it to one execution.
    if (item.status === 'approved' && this.#gateway) {
      const execution = await this.#gateway.executeApprovedReview(toApproved(item));
      const after = await this.#reviews.get(id);
      return { id, decided: changed, status: after?.status ?? item.status, execution };
    }
    return { id, decided: changed, status: item.status };
  }

  /** Denies a pending review; the denial is recorded and nothing runs. */
  async deny(id: string, by: string, note?: string): Promise<DecisionOutcome> {
    const { changed } = await this.#reviews.decide(
      id,
      { decision: 'denied', by, ...(note !== undefined ? { note } : {}) },
      this.#now(),
    );
    const item = await this.#reviews.get(id);
    return { id, decided: changed, status: item?.status ?? 'missing' };
  }

  /** One sweep: expire, auto-review pending items, run approved ones. Safe to run concurrently. */
  async process(limit = 100): Promise<ProcessReport> {
    const expired = await this.#reviews.expire(this.#now());
    const autoDecided: { id: string; decision: 'approve' | 'deny'; ruleId: string }[] = [];
    if (this.#reviewers) {
      for (const item of await this.#reviews.list({ status: 'pending', limit })) {
        const v = this.#reviewers.decide({ tool: item.tool, args: item.args, identity: item.identity });
        if (!v) continue;
        const { changed } = await this.#reviews.decide(
          item.id,
          {
            decision: v.decision === 'approve' ? 'approved' : 'denied',
            by: `${this.#autoName}:${v.ruleId}`,
            note: v.reason,
          },
          this.#now(),
        );
        if (changed) autoDecided.push({ id: item.id, decision: v.decision, ruleId: v.ruleId });
      }
    }
    const executed: { id: string; status: string }[] = [];
    if (this.#gateway) {
      for (const item of await this.#reviews.list({ status: 'approved', limit })) {
        const r = await this.#gateway.executeApprovedReview(toApproved(item));
        executed.push({ id: item.id, status: r.status });
      }
    }
    return { expired, autoDecided, executed };
  }
}

function toApproved(item: ReviewItem): ApprovedReview {
  return {
    id: item.id,
    tenant: item.tenant,
    user: item.user,
    sessionId: item.sessionId,
    agent: item.agent,
    domain: item.domain,
    tool: item.tool,
    args: item.args,
    identity: item.identity,
  };
}
