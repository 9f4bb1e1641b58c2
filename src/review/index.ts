export { type EndedReview, endedReview } from './review-outcome.js';
export {
  type ApprovedReviewRunner,
  approvalDecision,
  lostClaim,
  ReviewReplayer,
} from './review-replayer.js';
export {
  type ApprovalDecision,
  type DecisionOutcome,
  type ProcessReport,
  ReviewService,
  type ReviewServiceOptions,
  type SettleReport,
} from './review-service.js';
