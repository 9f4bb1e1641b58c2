/**
 * Working memory: what one task is in the middle of. Scoped per task id and held in this process
 * only; nothing in it is visible to another task or line, and dropping the task drops it all.
 */
export class WorkingMemory {
  private readonly tasks = new Map<string, Map<string, unknown>>();

  /** The scratch space of one task (created on first use). */
  forTask(taskId: string): TaskMemory {
    let m = this.tasks.get(taskId);
    if (!m) {
      m = new Map();
      this.tasks.set(taskId, m);
    }
    const map = m;
    return {
      taskId,
      get: <T = unknown>(key: string) => map.get(key) as T | undefined,
      set: (key, value) => {
        map.set(key, value);
      },
      delete: (key) => map.delete(key),
      keys: () => [...map.keys()],
    };
  }

  /** Forgets a finished or cancelled task. */
  drop(taskId: string): void {
    this.tasks.delete(taskId);
  }

  /** Ids of tasks with working memory. */
  taskIds(): string[] {
    return [...this.tasks.keys()];
  }
}

/** One task's working memory. */
export interface TaskMemory {
  readonly taskId: string;
  get<T = unknown>(key: string): T | undefined;
  set(key: string, value: unknown): void;
  delete(key: string): boolean;
  keys(): string[];
}
