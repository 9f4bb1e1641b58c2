import { UnknownTaskError } from './errors.js';

export const TASK_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** A work item on the team's shared list (task_create/get/list/update). */
export interface TeamTask {
  readonly id: string;
  readonly subject: string;
  readonly description: string;
  readonly status: TaskStatus;
  readonly owner?: string;
  readonly result?: string;
  /** Agent id that created it. */
  readonly createdBy: string;
  readonly updatedBy: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface TaskPatch {
  readonly status?: TaskStatus;
  readonly owner?: string;
  readonly result?: string;
  readonly description?: string;
}

/** The task list a coordinator and its teammates share, one per session, in memory. */
export class TaskBoard {
  readonly #tasks = new Map<string, TeamTask>();
  #seq = 0;
  readonly #now: () => Date;

  constructor(now: () => Date = () => new Date()) {
    this.#now = now;
  }

  create(input: { subject: string; description?: string; owner?: string }, by: string): TeamTask {
    const id = `task-${++this.#seq}`;
    const at = this.#now().toISOString();
    const task: TeamTask = {
      id,
      subject: input.subject,
      description: input.description ?? '',
      status: 'pending',
      ...(input.owner === undefined ? {} : { owner: input.owner }),
      createdBy: by,
      updatedBy: by,
      createdAt: at,
      updatedAt: at,
    };
    this.#tasks.set(id, task);
    return task;
  }

  get(id: string, where = 'task_get'): TeamTask {
    const t = this.#tasks.get(id);
    if (!t) throw new UnknownTaskError(where, id);
    return t;
  }

  list(status?: TaskStatus): TeamTask[] {
    const all = [...this.#tasks.values()];
    return status ? all.filter((t) => t.status === status) : all;
  }

  update(id: string, patch: TaskPatch, by: string): TeamTask {
    const prev = this.get(id, 'task_update');
    const next: TeamTask = {
      ...prev,
      ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
      updatedBy: by,
      updatedAt: this.#now().toISOString(),
    };
    this.#tasks.set(id, next);
    return next;
  }
}
