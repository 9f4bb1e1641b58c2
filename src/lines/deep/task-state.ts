import { z } from 'zod';
import { storedKind, type TaskRecord } from '../../store/index.js';
import { REQUEST_OUTCOMES } from '../events.js';
import { planSchema } from './plan.js';

/**
 * Version 1: the deep line's state of a task as it was stored before versions existed (the
 * `tasks.plan` column). Version 2 is the same shape stamped with `schemaVersion`.
 */
const taskStateV1 = z.strictObject({
  sessionId: z.string().min(1),
  /** Model turns the planner has consumed (lets a deterministic provider be replayed on resume). */
  plannerTurns: z.number().int().min(0),
  plan: planSchema.optional(),
  final: z.string().optional(),
  outcome: z.enum(REQUEST_OUTCOMES).optional(),
  /** The review a parked step waits for. */
  awaitingReview: z.strictObject({ stepNo: z.number().int().min(1), reviewId: z.string().min(1) }).optional(),
  /** Revisions the planner made after failed steps. */
  revisions: z.number().int().min(0).optional(),
});

/** Task state kept beside the plan, so a restart knows where the conversation stood. */
export type TaskState = z.output<typeof taskStateV1>;

/** The one reader and writer of `tasks.plan` (docs/architecture.md, "Versioned stored state"). */
export const TASK_STATE = storedKind<TaskState>('task state', [
  { schema: taskStateV1, up: (v: TaskState) => v },
  { schema: taskStateV1 },
]);

/**
 * A deep task's state as stored in its row, checked and lifted to the current version. A task
 * with no state yet reads as undefined; a malformed one is a `StoredStateError` naming the task
 * and the field.
 */
export function readTaskState(task: Pick<TaskRecord, 'id' | 'plan'>): TaskState | undefined {
  return task.plan === undefined
    ? undefined
    : TASK_STATE.read(task.plan, { row: task.id, field: 'tasks.plan' });
}

/** A task's state as it is stored (the current version, stamped). */
export function storedTaskState(state: TaskState): TaskState & { readonly schemaVersion: number } {
  return TASK_STATE.write(state);
}
