import { UnknownTaskError } from './errors.js';
import type { RunResult } from './run-result.js';

/** A background or teammate agent started by the agent tool. */
export interface BackgroundJob<Frame> {
  readonly id: string;
  readonly frame: Frame;
  /** The agent that started it: the only one that may read its output or stop it. */
  readonly ownerId: string;
  readonly done: Promise<RunResult>;
  result: RunResult | undefined;
}

/** Background jobs of a session by id (`Frame`: the agent frame). Ownership is checked on every read and stop. */
export class BackgroundJobs<Frame> {
  readonly #jobs = new Map<string, BackgroundJob<Frame>>();
  #seq = 0;

  nextId(): string {
    return `bg-${++this.#seq}`;
  }

  add(job: BackgroundJob<Frame>): void {
    this.#jobs.set(job.id, job);
    job.done.then((r) => {
      job.result = r;
    });
  }

  /** The job if `callerId` owns it; the same "no task" answer otherwise, so ids cannot be probed. */
  owned(id: string, callerId: string, where: string): BackgroundJob<Frame> {
    const job = this.#jobs.get(id);
    if (!job || job.ownerId !== callerId) throw new UnknownTaskError(where, id);
    return job;
  }

  /** The job by id, whoever owns it (the host stopping a task). */
  get(id: string): BackgroundJob<Frame> | undefined {
    return this.#jobs.get(id);
  }

  running(): BackgroundJob<Frame>[] {
    return [...this.#jobs.values()].filter((j) => j.result === undefined);
  }
}
