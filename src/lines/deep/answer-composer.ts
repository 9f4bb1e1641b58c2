import type { Plan } from './plan.js';
import { renderRelevantSummaries, type SummaryEntry } from './relevant-summaries.js';
import type { TaskRun } from './task-run.js';
import type { TaskState } from './task-state.js';

/**
 * Composes a task's final answer from its steps' summaries (docs/lines.md, "Deep line"): only the
 * relevant summaries reach the model, every raw output stays in the store. A planner that cannot
 * compose leaves the plain report (`composeReport`).
 */
export class AnswerComposer {
  /** `summaryCap`: most step summaries the composing prompt gets (default 10). */
  constructor(private readonly summaryCap?: number) {}

  async compose(
    run: TaskRun,
    done: { readonly plan: Plan; readonly state: TaskState; readonly summaries: readonly SummaryEntry[] },
  ): Promise<{ text: string; state: TaskState }> {
    const { task, planner, signal } = run;
    const { plan, state, summaries } = done;
    try {
      const relevant = renderRelevantSummaries(`${task.request} ${plan.goal}`, summaries, this.summaryCap);
      const text = await planner.compose(
        { request: task.request, plan, summaries: relevant },
        { consumedTurns: state.plannerTurns, signal },
      );
      return { text, state: { ...state, plannerTurns: state.plannerTurns + 1 } };
    } catch {
      return {
        text: composeReport(
          plan,
          summaries.map((s) => s.line),
        ),
        state,
      };
    }
  }
}

/** The report a task ends with when no model composes one: the goal and each step's summary. */
export function composeReport(plan: Plan, summaries: readonly string[]): string {
  return [`Goal: ${plan.goal}`, ...summaries].join('\n');
}
