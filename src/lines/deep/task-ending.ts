import type { TaskRecord, TaskRepository } from '../../store/index.js';
import type { RequestOutcome } from '../events.js';
import type { SummaryPublisher } from './summary-publisher.js';
import type { DeepRunResult } from './task-run.js';
import { storedTaskState, type TaskState } from './task-state.js';

/** How a task ends: its row, its state at the end, the outcome and the answer. */
export interface TaskEnding {
  readonly tasks: TaskRepository;
  readonly task: TaskRecord;
  readonly state: TaskState;
  readonly outcome: RequestOutcome;
  readonly text: string;
}

/**
 * Ends a task: writes the outcome and the final answer into its state, publishes the end on the
 * context bus (a bus that fails does not fail the task) and reports the steps' ledger.
 */
export class TaskFinisher {
  constructor(private readonly publisher: SummaryPublisher) {}

  async end({ tasks, task, state, outcome, text }: TaskEnding): Promise<DeepRunResult> {
    await tasks.updateTask(task.id, {
      status: outcome === 'completed' ? 'completed' : outcome,
      plan: storedTaskState({ ...state, outcome, final: text }),
    });
    await this.publisher.publishEnd(task, state, outcome).catch(() => {});
    return { taskId: task.id, outcome, text, ...(await stepLedger(tasks, task.id)) };
  }
}

/** The tools a task's finished steps ran, and those that failed or were denied. */
export async function stepLedger(
  tasks: TaskRepository,
  taskId: string,
): Promise<{ executed: string[]; denied: string[] }> {
  const steps = await tasks.getSteps(taskId);
  return {
    executed: steps.filter((s) => s.status === 'done' && s.tool).map((s) => s.tool as string),
    denied: steps.filter((s) => s.status === 'failed' && s.tool).map((s) => s.tool as string),
  };
}
