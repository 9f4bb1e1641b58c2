import type { Identity } from '../../core/index.js';
import type { TaskRecord, TaskRepository } from '../../store/index.js';
import type { LineEventSink, RequestOutcome } from '../events.js';
import type { PlannerPort } from './planner.js';

/** One run of a task: what its planning, steps, revisions and answer share. */
export interface TaskRun {
  readonly tasks: TaskRepository;
  readonly task: TaskRecord;
  /** The requester as the directory knows them now. */
  readonly identity: Identity;
  readonly planner: PlannerPort;
  readonly emit: LineEventSink;
  readonly signal?: AbortSignal | undefined;
}

/** How a run of a deep task ended (or where it stopped: parked on a review, interrupted). */
export interface DeepRunResult {
  readonly taskId: string;
  readonly outcome: RequestOutcome;
  readonly text: string;
  readonly executed: readonly string[];
  readonly denied: readonly string[];
  /** The ticket of a task answered on the degraded path. */
  readonly ticketId?: string;
}
