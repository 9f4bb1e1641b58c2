import { ShingleLedger } from '../../policy/index.js';
import type { Plan } from './plan.js';
import type { PlanReviser } from './plan-reviser.js';
import type { SummaryEntry } from './relevant-summaries.js';
import type { StepExecutor } from './step-executor.js';
import { isFinished, shouldRevise } from './step-machine.js';
import { stepLedger } from './task-ending.js';
import type { DeepRunResult, TaskRun } from './task-run.js';
import type { TaskState } from './task-state.js';

/** Where a walk over the steps ended: stopped early, or at the end of the plan. */
export type Walk =
  | { readonly stopped: DeepRunResult }
  | { readonly plan: Plan; readonly state: TaskState; readonly summaries: SummaryEntry[] };

/**
 * Walks a planned task's steps (docs/lines.md, "Deep line"): each unfinished step in order through
 * the executor, finished ones skipped, the rest of the plan revised after a failure.
 */
export class StepWalker {
  constructor(
    private readonly steps: StepExecutor,
    private readonly reviser: PlanReviser,
  ) {}

  /**
   * Runs every unfinished step in order, revising the rest of the plan after a failure. Where the
   * walk stopped (interrupted, parked on a review), or the plan, state and summaries at its end.
   */
  async walk(run: TaskRun, start: TaskState): Promise<Walk> {
    const { tasks, task, signal } = run;
    let state = start;
    let plan = state.plan!;
    const steps = await tasks.getSteps(task.id);
    const ledger = new ShingleLedger();
    ledger.addTrusted(task.request);
    const summaries: SummaryEntry[] = [];
    for (const s of steps)
      if (s.status !== 'pending' && s.outputSummary)
        summaries.push({
          stepNo: s.stepNo,
          tool: s.tool ?? '',
          goal: s.goal,
          status: s.status,
          line: s.outputSummary,
        });

    for (let i = 0; i < plan.steps.length; i++) {
      if (signal?.aborted) {
        await tasks.updateTask(task.id, { status: 'interrupted' });
        const text = 'Interrupted; the task can be resumed.';
        return {
          stopped: { taskId: task.id, outcome: 'failed', text, ...(await stepLedger(tasks, task.id)) },
        };
      }
      const stepNo = i + 1;
      const record = steps.find((s) => s.stepNo === stepNo);
      if (isFinished(record)) continue;
      const step = plan.steps[i]!;
      const outcome = await this.steps.run({ ...run, state, plan, ledger }, stepNo, record);
      if (outcome.status === 'review') {
        const text = `Step ${stepNo} (${step.tool}) awaits review.`;
        return {
          stopped: { taskId: task.id, outcome: 'review', text, ...(await stepLedger(tasks, task.id)) },
        };
      }
      summaries.push({
        stepNo,
        tool: step.tool,
        goal: step.goal,
        status: outcome.status,
        line: outcome.summary,
      });
      await tasks.updateTask(task.id, { currentStep: stepNo });
      if (shouldRevise(outcome, state.revisions, run.planner.revise !== undefined)) {
        ({ plan, state } = await this.reviser.revise(run, { plan, state, stepNo, summaries }));
      }
    }
    return { plan, state, summaries };
  }
}
