import type { ReviewItem, TaskRepository } from '../../store/index.js';

/** The name the review service records for a reviewers.yaml rule: `auto-reviewer:<rule id>`. */
const RULE_DECIDER = /^auto-reviewer:/;

/** What the console shows of a review beyond the row itself. Text fields are gated by the caller. */
export interface ReviewDetails {
  readonly requester: { readonly roles: readonly string[]; readonly dataLevel: string };
  readonly decidedAt?: string;
  readonly decisionNote?: string;
  readonly decidedByRule?: boolean;
  readonly taskId?: string;
  readonly request?: string;
}

/**
 * Details of a page of reviews (docs/operations.md, "Console"): the requester's roles and data level
 * as they were when the call was queued, who decided and when (a person, or a reviewer rule), and
 * the request behind the call: a deep task's request (one read per task), a flagged input's text.
 */
export async function reviewDetails(
  tasks: TaskRepository,
  items: readonly ReviewItem[],
): Promise<(r: ReviewItem) => ReviewDetails> {
  const requests = new Map<string, string>();
  for (const id of new Set(items.map((r) => r.taskId).filter((t): t is string => t !== undefined))) {
    const task = await tasks.getTask(id);
    if (task) requests.set(id, task.request);
  }
  return (r) => {
    const request = r.taskId ? requests.get(r.taskId) : r.kind === 'input' ? r.query : undefined;
    return {
      requester: { roles: r.identity.roles, dataLevel: r.identity.dataLevel },
      ...(r.decidedAt ? { decidedAt: r.decidedAt } : {}),
      ...(r.decisionNote ? { decisionNote: r.decisionNote } : {}),
      ...(r.decidedBy ? { decidedByRule: RULE_DECIDER.test(r.decidedBy) } : {}),
      ...(r.taskId ? { taskId: r.taskId } : {}),
      ...(request !== undefined ? { request } : {}),
    };
  };
}
