import type { Identity } from '../core/index.js';
import type { Egress } from '../gates/index.js';
import type { RequestResult } from '../lines/index.js';
import type { ReviewerSet } from '../policy/index.js';
import { ReviewReplayer, ReviewService } from '../review/index.js';
import type { AuditSink, Store } from '../store/index.js';
import type { ToolSpec } from '../tools/index.js';
import { ApprovedReviewExecutor } from './approved-review-executor.js';
import type { LineGateways } from './line-gateways.js';
import { ReviewWorkflow } from './review-workflow.js';
import type { TaskScheduler } from './task-scheduler.js';

/** What the review path is built from. */
export interface ReviewPathDeps {
  readonly store: Store;
  readonly lines: Pick<LineGateways, 'replayRunner'>;
  readonly reviewers: ReviewerSet | undefined;
  readonly scheduler: Pick<TaskScheduler, 'continueAfter'>;
  readonly egress: Egress;
  readonly audit: AuditSink;
  readonly auditArguments?: ((tool: ToolSpec, args: unknown) => { args: unknown; level: string }) | undefined;
  readonly resolveIdentity: (tenant: string, user: string) => Identity | undefined;
  /** Runs a request a reviewer cleared, as its author, on the normal path. */
  readonly runCleared: (author: Identity, query: string, sessionId: string) => Promise<RequestResult>;
  readonly now: () => Date;
}

/**
 * The review path (docs/architecture.md, "Platform"): the service that decides reviews, the
 * executor that runs what was approved through the lines' replay gateways and continues its task,
 * and the workflow the doors call. `reviews` also runs approved calls itself (`process`), for a
 * caller that holds `Platform.reviews`; the claim in the store keeps every call to one run.
 */
export function reviewPath(deps: ReviewPathDeps): {
  reviews: ReviewService;
  workflow: ReviewWorkflow;
} {
  const { store, lines, resolveIdentity, now } = deps;
  const reviews = new ReviewService({
    reviews: store.reviews,
    // A review is executed by the replay gateway of the line its call came from.
    gateway: lines.replayRunner,
    resolveIdentity,
    ...(deps.reviewers ? { reviewers: deps.reviewers } : {}),
    now,
  });
  const executor = new ApprovedReviewExecutor({
    replayer: new ReviewReplayer(lines.replayRunner, resolveIdentity),
    reviewsFor: (t) => store.forTenant(t).reviews,
    allReviews: store.admin.reviews,
    scheduler: deps.scheduler,
    resolveIdentity,
    runCleared: deps.runCleared,
    egress: deps.egress,
  });
  const workflow = new ReviewWorkflow({
    store,
    reviews,
    executor,
    egress: deps.egress,
    audit: deps.audit,
    auditArguments: deps.auditArguments,
    now,
  });
  return { reviews, workflow };
}
