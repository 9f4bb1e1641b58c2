export { type EndedReview, endedReview } from './review-outcome.js';
export {
  type ApprovedReviewRunner,
  type DecisionOutcome,
  type ProcessReport,
  ReviewService,
  type ReviewServiceOptions,
} from './review-service.js';
