import type { Identity, StageDecision } from '../core/index.js';
import type { GatewayResult } from '../gateway/index.js';
import type { ReviewerSet } from '../policy/index.js';
import type { ReviewItem, ReviewRepository, ReviewStatus } from '../store/index.js';
import { type ApprovedReviewRunner, approvalDecision, ReviewReplayer } from './review-replayer.js';

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

/** What deciding an approval did, before anything runs. */
export interface ApprovalDecision {
  readonly id: string;
  /** True when this call changed the review (pending → approved). */
  readonly decided: boolean;
  readonly status: ReviewStatus | 'missing';
  /** Why the approval was refused (four-eyes), when it was; nothing changed. */
  readonly refused?: { readonly ruleId: string; readonly reason: string };
  /**
   * The review, approved and not yet run (by this call or by an approver whose process stopped
   * before running it), with the approval that leads the run's decision path.
   */
  readonly approved?: { readonly item: ReviewItem; readonly approval: StageDecision };
}

/** What a sweep decided without running anything: expiries and reviewer rules. */
export interface SettleReport {
  readonly expired: number;
  readonly autoDecided: readonly { id: string; decision: 'approve' | 'deny'; ruleId: string }[];
}

export interface ProcessReport {
  readonly expired: number;
  readonly autoDecided: readonly { id: string; decision: 'approve' | 'deny'; ruleId: string }[];
  readonly executed: readonly { id: string; status: string }[];
}

/**
 * The review queue as a service: expires stale reviews, lets rule-based reviewers decide what
 * they can, and records human decisions under four-eyes, each in one conditional update. With a
 * gateway it also runs approved calls (`ReviewReplayer`) — which claims each review in the store
 * first, so however many approvals or workers race, a call runs once, with the arguments and
 * identity it was queued with. The platform decides here and runs through its own executor.
 */
export class ReviewService {
  readonly #reviews: ReviewRepository;
  readonly #replayer: ReviewReplayer | undefined;
  readonly #reviewers: ReviewerSet | undefined;
  readonly #now: () => Date;
  readonly #autoName: string;

  constructor(options: ReviewServiceOptions) {
    this.#reviews = options.reviews;
    this.#reviewers = options.reviewers;
    this.#now = options.now ?? (() => new Date());
    this.#autoName = options.autoReviewerName ?? 'auto-reviewer';
    if (options.gateway && !options.resolveIdentity) {
      throw new TypeError(
        'ReviewService: a gateway needs resolveIdentity, so approved calls run as who the requester is now',
      );
    }
    this.#replayer = options.gateway
      ? new ReviewReplayer(options.gateway, options.resolveIdentity)
      : undefined;
  }

  /**
   * Four-eyes: the requester may not approve their own review, unless a self-approval rule of
   * reviewers.yaml covers their call (then the rule is recorded with the approval). A flagged
   * request is always cleared by someone else. Undefined: allowed as any reviewer.
   */
  #fourEyes(
    item: ReviewItem,
    by: string,
  ):
    | { refused: { ruleId: string; reason: string } }
    | { self: { ruleId: string; reason: string } }
    | undefined {
    if (by !== item.user) return undefined;
    if (item.kind === 'input')
      return {
        refused: {
          ruleId: 'review.four-eyes',
          reason: `${by} wrote this request and may not clear it; another reviewer must`,
        },
      };
    const rule = this.#reviewers?.selfApproval?.({
      tool: item.tool,
      args: item.args,
      identity: item.identity,
    });
    if (rule) return { self: rule };
    return {
      refused: {
        ruleId: 'review.four-eyes',
        reason: `${by} requested this call and may not decide it; another reviewer must (no self-approval rule in reviewers.yaml covers ${item.tool})`,
      },
    };
  }

  list(filter: { tenant?: string; status?: ReviewStatus; limit?: number } = {}): Promise<ReviewItem[]> {
    return this.#reviews.list(filter);
  }

  get(id: string): Promise<ReviewItem | undefined> {
    return this.#reviews.get(id);
  }

  /**
   * Approves a pending review of either kind (four-eyes, one conditional update) and runs
   * nothing: the review comes back `approved` for the caller to run, also when an earlier
   * approver's process stopped before running it.
   */
  async decideApproval(id: string, by: string, note?: string): Promise<ApprovalDecision> {
    const pending = await this.#reviews.get(id);
    if (!pending) return { id, decided: false, status: 'missing' };
    const eyes = pending.status === 'pending' ? this.#fourEyes(pending, by) : undefined;
    if (eyes && 'refused' in eyes)
      return { id, decided: false, status: pending.status, refused: eyes.refused };
    const { changed } = await this.#reviews.decide(
      id,
      { decision: 'approved', by, ...(note !== undefined ? { note } : {}) },
      this.#now(),
    );
    const item = await this.#reviews.get(id);
    if (!item) return { id, decided: false, status: 'missing' };
    if (item.status !== 'approved') return { id, decided: changed, status: item.status };
    const approval = approvalDecision(item, eyes && 'self' in eyes ? eyes.self : undefined);
    return { id, decided: changed, status: item.status, approved: { item, approval } };
  }

  /** Approves a pending tool-call review and, with a gateway, runs it (at most once, whoever else approves or runs it). */
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
    const decision = await this.decideApproval(id, by, note);
    const { approved, ...outcome } = decision;
    // An approved-but-unclaimed review (e.g. the approver crashed before running it) is run by
    // the next approval or sweep; the store's claim keeps it to one execution.
    if (approved?.item.kind !== 'tool_call' || !this.#replayer) return outcome;
    const execution = await this.#replayer.replay(approved.item, approved.approval);
    const after = await this.#reviews.get(id);
    return { ...outcome, status: after?.status ?? outcome.status, execution };
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

  /** Expires stale reviews and lets reviewer rules decide pending calls; runs nothing. Safe to run concurrently. */
  async settle(limit = 100): Promise<SettleReport> {
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
    return { expired, autoDecided };
  }

  /** One sweep: `settle`, then, with a gateway, run the approved calls. Safe to run concurrently. */
  async process(limit = 100): Promise<ProcessReport> {
    const settled = await this.settle(limit);
    const executed: { id: string; status: string }[] = [];
    if (this.#replayer) {
      for (const item of await this.#reviews.list({ status: 'approved', limit })) {
        // An approved input review is run by the platform, as its author.
        if (item.kind !== 'tool_call') continue;
        const r = await this.#replayer.replay(item, approvalDecision(item, undefined));
        executed.push({ id: item.id, status: r.status });
      }
    }
    return { ...settled, executed };
  }
}
