import type { TaskRecord } from '../../store/index.js';
import type { RecentSummaries } from '../context/recent-summaries.js';
import type { RequestOutcome } from '../events.js';
import type { TaskState } from './task-state.js';

/**
 * Publishes a finished task on the context bus (docs/lines.md, "Context bus"): "task X completed:
 * <goal>" — the goal, never the results. Without a bus it publishes nothing.
 */
export class SummaryPublisher {
  constructor(private readonly context: RecentSummaries | undefined) {}

  async publishEnd(task: TaskRecord, state: TaskState, outcome: RequestOutcome): Promise<void> {
    if (!this.context || (outcome !== 'completed' && outcome !== 'failed')) return;
    const goal = state.plan?.goal ?? task.request;
    const summary = `task ${task.id} ${outcome}: ${goal.replace(/\s+/g, ' ').slice(0, 160)}`;
    const base = {
      tenant: task.tenant,
      user: task.user,
      fromLine: 'deep' as const,
      kind: `task.${outcome}`,
      refs: [`task:${task.id}`],
    };
    // A goal the bus refuses (personal data in it) leaves only the task id.
    if (!(await this.context.publish({ ...base, summary })))
      await this.context.publish({ ...base, summary: `task ${task.id} ${outcome}` });
  }
}
