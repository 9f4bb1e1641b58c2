import { decide, type Identity, type StageDecision } from '../core/index.js';
import type { ApprovedReview, GatewayResult, ReviewReplay } from '../gateway/index.js';
import type { ReviewerSet } from '../policy/index.js';
import type { ReviewItem, ReviewRepository, ReviewStatus, ToolCallReview } from '../store/index.js';

/** The one gateway operation the review service needs (a `review-replay` gateway). */
export interface ApprovedReviewRunner {
  executeApprovedReview(review: ApprovedReview, replay: ReviewReplay): Promise<GatewayResult>;
}

interface ReviewServiceBase {
  readonly reviews: ReviewRepository;
  /** Rule-based reviewers (reviewers.yaml); absent means humans decide everything. */
  readonly reviewers?: ReviewerSet;
  readonly now?: () => Date;
  /** Name recorded as `decidedBy` for rule-based decisions. */
  readonly autoReviewerName?: string;
}

export type ReviewServiceOptions = ReviewServiceBase &
  (
    | {
        /** Absent: approvals are recorded, and executed later by a process that has a gateway. */
        readonly gateway?: undefined;
        readonly resolveIdentity?: undefined;
      }
    | {
        /** Runs approved calls: a gateway of a `review-replay` profile. */
        readonly gateway: ApprovedReviewRunner;
        /**
         * The requester as the directory knows them now (undefined: gone). An approved call runs
         * as this identity, never as the snapshot taken when it was queued.
         */
        readonly resolveIdentity: (tenant: string, user: string) => Identity | undefined;
      }
  );

export interface DecisionOutcome {
  readonly id: string;
  /** True when this call changed the review (pending → approved|denied). */
  readonly decided: boolean;
  /** The review's status afterwards. */
  readonly status: ReviewStatus | 'missing';
  /** The execution, when this call ran the approved review. */
  readonly execution?: GatewayResult;
  /** Why the decision was refused (four-eyes), when it was; nothing changed. */
  readonly refused?: { readonly ruleId: string; readonly reason: string };
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
  readonly #resolveIdentity: ((tenant: string, user: string) => Identity | undefined) | undefined;

  constructor(options: ReviewServiceOptions) {
    this.#reviews = options.reviews;
    this.#gateway = options.gateway;
    this.#reviewers = options.reviewers;
    this.#now = options.now ?? (() => new Date());
    this.#autoName = options.autoReviewerName ?? 'auto-reviewer';
    this.#resolveIdentity = options.resolveIdentity;
    if (options.gateway && !options.resolveIdentity) {
      throw new TypeError(
        'ReviewService: a gateway needs resolveIdentity, so approved calls run as who the requester is now',
      );
    }
  }

  /**
   * Four-eyes: the requester may not decide their own review, unless a self-approval rule of
   * reviewers.yaml covers it (then the rule is recorded with the decision). Undefined: allowed.
   */
  #fourEyes(item: ReviewItem, by: string): { ruleId: string; reason: string } | 'self' | undefined {
    if (by !== item.user) return undefined;
    const rule = this.#reviewers?.selfApproval?.({
      tool: item.tool,
      args: item.args,
      identity: item.identity,
    });
    if (rule) return 'self';
    return {
      ruleId: 'review.four-eyes',
      reason: `${by} requested this call and may not decide it; another reviewer must (no self-approval rule in reviewers.yaml covers ${item.tool})`,
    };
  }

  #run(item: ToolCallReview, approval: StageDecision): Promise<GatewayResult> {
    const identity = this.#resolveIdentity?.(item.tenant, item.user);
    return this.#gateway!.executeApprovedReview(toApproved(item), { identity, approval });
  }

  list(filter: { tenant?: string; status?: ReviewStatus; limit?: number } = {}): Promise<ReviewItem[]> {
    return this.#reviews.list(filter);
  }

  get(id: string): Promise<ReviewItem | undefined> {
    return this.#reviews.get(id);
  }

  /** Approves a pending review and runs it (at most once, whoever else approves or runs it). */
  async approve(id: string, by: string, note?: string): Promise<DecisionOutcome> {
    const pending = await this.#reviews.get(id);
    if (!pending) return { id, decided: false, status: 'missing' };
    if (pending.kind !== 'tool_call')
      return {
        id,
        decided: false,
        status: pending.status,
        refused: {
          ruleId: 'review.not-a-call',
          reason: 'a flagged request is cleared through the platform (approveReview), as its author',
        },
      };
    const eyes = pending.status === 'pending' ? this.#fourEyes(pending, by) : undefined;
    if (eyes && eyes !== 'self') return { id, decided: false, status: pending.status, refused: eyes };
    const { changed } = await this.#reviews.decide(
      id,
      { decision: 'approved', by, ...(note !== undefined ? { note } : {}) },
      this.#now(),
    );
    const item = await this.#reviews.get(id);
    if (item?.kind !== 'tool_call') return { id, decided: false, status: 'missing' };
    // An approved-but-unclaimed review (e.g. the approver crashed before running it) is run by
    // the next approval or sweep; the store's claim keeps it to one execution.
    if (item.status === 'approved' && this.#gateway) {
      const self =
        eyes === 'self'
          ? this.#reviewers?.selfApproval?.({ tool: item.tool, args: item.args, identity: item.identity })
          : undefined;
      const execution = await this.#run(item, approvalDecision(item, self));
      const after = await this.#reviews.get(id);
      return { id, decided: changed, status: after?.status ?? item.status, execution };
    }
    return { id, decided: changed, status: item.status };
  }

  /** Denies a pending review; the denial is recorded and nothing runs. */
  async deny(id: string, by: string, note?: string): Promise<DecisionOutcome> {
    const pending = await this.#reviews.get(id);
    if (!pending) return { id, decided: false, status: 'missing' };
    // Denying one's own request withdraws it: four-eyes guards approvals, which make things run.
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
        // Rules decide calls; a flagged request is for people (the platform's review workflow).
        if (item.kind !== 'tool_call') continue;
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
        // An approved input review is run by the workflow that approved it, as its author.
        if (item.kind !== 'tool_call') continue;
        const r = await this.#run(item, approvalDecision(item, undefined));
        executed.push({ id: item.id, status: r.status });
      }
    }
    return { expired, autoDecided, executed };
  }
}

/** The approval as the first entry of the replayed call's decision path (who, and any self-approval rule). */
function approvalDecision(
  item: ReviewItem,
  self: { ruleId: string; reason: string } | undefined,
): StageDecision {
  const by = item.decidedBy ?? 'a reviewer';
  return self
    ? decide(
        'allow',
        'review',
        'review.self-approved',
        `approved by the requester ${by} under self-approval rule "${self.ruleId}": ${self.reason}`,
        {
          details: { by, rule: self.ruleId },
        },
      )
    : decide('allow', 'review', 'review.approved', `approved by ${by}`, { details: { by } });
}

function toApproved(item: ToolCallReview): ApprovedReview {
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
    ...(item.taskId ? { taskId: item.taskId } : {}),
  };
}
