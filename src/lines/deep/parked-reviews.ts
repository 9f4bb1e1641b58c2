import type { EndedReview } from '../../review/index.js';
import type { TaskRecord, TaskRepository } from '../../store/index.js';
import { reviewedStep } from './step-machine.js';
import { readTaskState, storedTaskState } from './task-state.js';

/** What moving parked tasks on needs. */
export interface ParkedReviewsDeps {
  readonly tasksFor: (tenant: string) => TaskRepository;
  /** How a review ended, or undefined while it is still open. */
  readonly reviewOutcome?: (tenant: string, reviewId: string) => Promise<EndedReview | undefined>;
  readonly now: () => Date;
}

/**
 * Deep tasks parked on a review (docs/lines.md, "Deep line"): which review a task waits for, and
 * moving it on — once, in one conditional update — when that review has ended.
 */
export class ParkedReviews {
  constructor(private readonly deps: ParkedReviewsDeps) {}

  /** The review a parked task waits for, if it waits for one. */
  awaitedReview(task: TaskRecord): string | undefined {
    return task.status === 'awaiting_review' ? readTaskState(task)?.awaitingReview?.reviewId : undefined;
  }

  /**
   * Lets a parked task continue when its review has ended, however it ended (approved and run,
   * denied, expired, decided by a rule or by another process). True when the task may run again.
   */
  async settle(tenant: string, taskId: string): Promise<boolean> {
    const task = await this.deps.tasksFor(tenant).getTask(taskId);
    const reviewId = task && this.awaitedReview(task);
    const outcome = reviewId && (await this.deps.reviewOutcome?.(tenant, reviewId));
    return outcome ? this.resolve(tenant, taskId, { reviewId, ...outcome }) : false;
  }

  /**
   * Records the outcome of a reviewed step and lets the task continue on its next run. Several
   * parties may learn of the same outcome at once (the approver, the parked run, a sweep in
   * another process): the task moves on in one conditional update, and only the caller whose
   * update applied gets true.
   */
  async resolve(
    tenant: string,
    taskId: string,
    outcome: { reviewId: string } & EndedReview,
  ): Promise<boolean> {
    const tasks = this.deps.tasksFor(tenant);
    const task = await tasks.getTask(taskId);
    const state = task && readTaskState(task);
    const wait = state?.awaitingReview;
    if (!task || this.awaitedReview(task) !== outcome.reviewId || !state?.plan || !wait) return false;
    const step = state.plan.steps[wait.stepNo - 1]!;
    // The step first: whoever wins the update below, the task must never be runnable with the
    // reviewed step still pending, or the call would be proposed (and reviewed) a second time.
    await tasks.upsertStep({
      taskId,
      stepNo: wait.stepNo,
      goal: step.goal,
      tool: step.tool,
      params: step.args,
      paramsValidated: true,
      ...reviewedStep(wait.stepNo, step, outcome),
      finishedAt: this.deps.now().toISOString(),
    });
    const { awaitingReview: _done, ...rest } = state;
    const { changed } = await tasks.updateTask(
      taskId,
      { status: 'queued', plan: storedTaskState(rest), currentStep: wait.stepNo },
      { status: 'awaiting_review', updatedAt: task.updatedAt },
    );
    return changed;
  }
}
