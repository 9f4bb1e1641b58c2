import type { TaskRepository } from '../../store/index.js';

/**
 * Runs work on a task only while this process holds the task's lease (docs/lines.md, "Deep
 * line"): claims it, renews it on a heartbeat while the work runs, and releases it afterwards.
 * The lease keeps processes apart; a set of the tasks held here keeps two runs inside this one
 * apart (a request's own run and a sweep that finds the task still running), since both would
 * hold the same owner's lease.
 */
export class LeaseRunner {
  readonly #held = new Set<string>();

  constructor(
    private readonly owner: string,
    private readonly leaseMs: number,
    private readonly now: () => Date,
  ) {}

  /** True while a run of this process holds the task. */
  holds(taskId: string): boolean {
    return this.#held.has(taskId);
  }

  /** `work`'s result, or undefined when another run (here or elsewhere) holds the task. */
  async run<T>(tasks: TaskRepository, taskId: string, work: () => Promise<T>): Promise<T | undefined> {
    if (this.#held.has(taskId)) return undefined;
    this.#held.add(taskId);
    let leased = false;
    try {
      leased = await tasks.claimLease(taskId, this.owner, this.leaseMs, this.now());
    } finally {
      if (!leased) this.#held.delete(taskId);
    }
    if (!leased) return undefined;
    const heartbeat = setInterval(
      () => {
        tasks.claimLease(taskId, this.owner, this.leaseMs, this.now()).catch(() => {});
      },
      Math.max(50, Math.floor(this.leaseMs / 3)),
    );
    heartbeat.unref();
    try {
      return await work();
    } finally {
      clearInterval(heartbeat);
      // Released before the task leaves the held set: a run of this process that starts meanwhile
      // stands aside instead of taking a lease (same owner) that is about to be cleared.
      await tasks.releaseLease(taskId, this.owner).catch(() => {});
      this.#held.delete(taskId);
    }
  }
}
