import type { DeepLine, DeepRunResult } from '../lines/index.js';
import type { DeepAdmission } from '../resilience/index.js';
import type { EndedReview } from '../review/index.js';
import type { TaskRepository } from '../store/index.js';

/** What the scheduler needs (docs/architecture.md, "Platform"). */
export interface TaskSchedulerDeps {
  readonly deep: DeepLine;
  /** Fair admission: every run waits here for its slot. */
  readonly deepQueue: DeepAdmission;
  /** A tenant's tasks (`store.forTenant(t).tasks`). */
  readonly tasksFor: (tenant: string) => TaskRepository;
  /** Every tenant's tasks (`store.admin.tasks`), for the sweep after a restart. */
  readonly allTasks: TaskRepository;
  /** Seconds a run waited for admission (metrics). */
  readonly onQueueWait?: (seconds: number) => void;
}

/** The task states a stopped process may have left a deep task in. */
const UNFINISHED = ['queued', 'running', 'planning', 'interrupted'] as const;
const FINISHED = new Set(['completed', 'failed', 'cancelled', 'denied']);

/**
 * Runs persisted deep tasks: queues each fairly, cancels, continues a task whose review ended and
 * picks up what a stopped process left behind. The deep line drives a task; this decides when.
 */
export class TaskScheduler {
  readonly #running = new Map<string, AbortController>();

  constructor(private readonly deps: TaskSchedulerDeps) {}

  /** Queues a persisted task; a tenant whose backlog is full waits for the next sweep. */
  run(task: { tenant: string; user: string; id: string }): { done: Promise<DeepRunResult | undefined> } {
    const { tenant, id: taskId } = task;
    const { deep, deepQueue } = this.deps;
    if (!deepQueue.hasRoom(tenant)) return { done: Promise.resolve(undefined) };
    const ac = new AbortController();
    this.#running.set(taskId, ac);
    const queuedAt = performance.now();
    return deepQueue.submit({ tenant, user: task.user, taskId }, async () => {
      this.deps.onQueueWait?.((performance.now() - queuedAt) / 1000);
      try {
        return await deep.run(tenant, taskId, { signal: ac.signal });
      } finally {
        if (this.#running.get(taskId) === ac) this.#running.delete(taskId);
      }
    });
  }

  /** Cancels a deep task: aborts it here if it runs here, and marks it so no process continues it. */
  async cancel(tenant: string, taskId: string): Promise<boolean> {
    const tasks = this.deps.tasksFor(tenant);
    const task = await tasks.getTask(taskId);
    if (!task || FINISHED.has(task.status)) return false;
    this.#running.get(taskId)?.abort('cancelled');
    // Still waiting for admission here: it leaves the queue and never starts.
    this.deps.deepQueue.cancel(taskId);
    await tasks.updateTask(taskId, { status: 'cancelled' });
    return true;
  }

  /**
   * Lets the task parked on review `reviewId` continue with how the review ended; the task id when
   * this call moved it on. Undefined when someone else (the parked run, a sweep, another process)
   * moved it first, or when it is not parked yet: the run that is parking it finds the decision.
   */
  async continueAfter(
    tenant: string,
    taskId: string,
    reviewId: string,
    ended: EndedReview,
  ): Promise<string | undefined> {
    const task = await this.deps.tasksFor(tenant).getTask(taskId);
    if (!task || !(await this.deps.deep.resolveReview(tenant, taskId, { reviewId, ...ended })))
      return undefined;
    this.run(task).done.catch(() => {});
    return taskId;
  }

  /**
   * Parked tasks whose review ended without waking them: decided by a rule or expired in a sweep,
   * or approved in a process that stopped before it could continue the task.
   */
  async wake(): Promise<number> {
    let woken = 0;
    for (const task of await this.deps.allTasks.listTasks({ status: 'awaiting_review', limit: 1000 })) {
      if (task.line !== 'deep' || this.deps.deep.handles(task.id)) continue;
      if (await this.deps.deep.settleParked(task.tenant, task.id)) {
        this.run(task).done.catch(() => {});
        woken++;
      }
    }
    return woken;
  }

  /** Wakes settled parked tasks and starts every deep task a stopped process left unfinished. */
  async resume(): Promise<number> {
    let started = await this.wake();
    for (const status of UNFINISHED) {
      for (const task of await this.deps.allTasks.listTasks({ status, limit: 1000 })) {
        if (task.line !== 'deep' || this.#running.has(task.id) || this.deps.deep.handles(task.id)) continue;
        this.run(task).done.catch(() => {});
        started++;
      }
    }
    return started;
  }

  /** Aborts every run of this process (they stay resumable). */
  close(): void {
    for (const ac of this.#running.values()) ac.abort('shutting down');
  }
}
