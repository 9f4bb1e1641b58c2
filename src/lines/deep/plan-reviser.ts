import { type Plan, parseRevision } from './plan.js';
import { renderRelevantSummaries, type SummaryEntry } from './relevant-summaries.js';
import { planEvent } from './task-planner.js';
import type { TaskRun } from './task-run.js';
import { storedTaskState, type TaskState } from './task-state.js';

/** Where a task stands when a step failed: its plan and state, the step, what the steps said. */
export interface RevisionPoint {
  readonly plan: Plan;
  readonly state: TaskState;
  /** The step that failed; the steps after it may be replaced. */
  readonly stepNo: number;
  readonly summaries: readonly SummaryEntry[];
}

/**
 * Reports a failed step back to the planner, which may replace the remaining steps (docs/lines.md,
 * "Deep line"). The declared capabilities stay as fixed at planning time: a revision cannot add a
 * high-risk tool. An answer that is not a revision keeps the plan as it is.
 */
export class PlanReviser {
  /** `summaryCap`: most step summaries the planner is shown (default of `renderRelevantSummaries`). */
  constructor(private readonly summaryCap?: number) {}

  async revise(run: TaskRun, at: RevisionPoint): Promise<{ plan: Plan; state: TaskState }> {
    const { tasks, task, planner, emit, signal } = run;
    const { stepNo } = at;
    let { plan, state } = at;
    const relevant = renderRelevantSummaries(`${task.request} ${plan.goal}`, at.summaries, this.summaryCap);
    let answer: string | undefined;
    try {
      answer = await planner.revise!(
        { request: task.request, plan, summaries: relevant, failedStep: stepNo },
        { consumedTurns: state.plannerTurns, signal },
      );
    } catch {
      return { plan, state };
    }
    state = { ...state, plannerTurns: state.plannerTurns + 1, revisions: (state.revisions ?? 0) + 1 };
    const steps = parseRevision(answer);
    if (!steps) {
      await tasks.updateTask(task.id, { plan: storedTaskState(state) });
      return { plan, state };
    }
    const previous = plan.steps.length;
    plan = { ...plan, steps: [...plan.steps.slice(0, stepNo), ...steps].slice(0, 60) };
    state = { ...state, plan };
    for (let n = stepNo + 1; n <= Math.max(previous, plan.steps.length); n++) {
      const next = plan.steps[n - 1];
      await tasks.upsertStep(
        next
          ? {
              taskId: task.id,
              stepNo: n,
              status: 'pending',
              goal: next.goal,
              tool: next.tool,
              params: next.args,
            }
          : {
              taskId: task.id,
              stepNo: n,
              status: 'skipped',
              goal: 'replaced by a revised plan',
              error: 'plan revised',
            },
      );
    }
    await tasks.updateTask(task.id, { plan: storedTaskState(state) });
    emit(planEvent(task.id, plan));
    return { plan, state };
  }
}
