import { decide, type Identity, type StageDecision } from '../core/index.js';
import type { ApprovedReview, GatewayResult, ReviewReplay } from '../gateway/index.js';
import type { ReviewItem, ToolCallReview } from '../store/index.js';

/** The one gateway operation replaying needs (a `review-replay` gateway). */
export interface ApprovedReviewRunner {
  executeApprovedReview(review: ApprovedReview, replay: ReviewReplay): Promise<GatewayResult>;
}

/**
 * Runs an approved tool call through a `review-replay` gateway (docs/architecture.md, "Approvals
 * re-decide"), as the requester is in the directory now: the gateway claims the review in the
 * store first, so however many approvals or sweeps race, the call runs once.
 */
export class ReviewReplayer {
  constructor(
    private readonly gateway: ApprovedReviewRunner,
    /** The requester as the directory knows them now (undefined: gone, and the call does not run). */
    private readonly resolveIdentity: (tenant: string, user: string) => Identity | undefined,
  ) {}

  replay(item: ToolCallReview, approval: StageDecision): Promise<GatewayResult> {
    const identity = this.resolveIdentity(item.tenant, item.user);
    return this.gateway.executeApprovedReview(toApproved(item), { identity, approval });
  }
}

/** The gateway's answer when another approval or process claimed the review first. */
export function lostClaim(result: GatewayResult): boolean {
  return result.decision.ruleId === 'review.not-claimable';
}

/** The approval as the first entry of the replayed call's decision path (who, and any self-approval rule). */
export function approvalDecision(
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
