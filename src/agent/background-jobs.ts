import type { AgentFrame } from './agent-frame.js';
import { UnknownTaskError } from './errors.js';
import type { RunResult } from './run-result.js';

/** A background or teammate agent started by the agent tool. */
export interface BackgroundJob {
  readonly id: string;
  readonly frame: AgentFrame;
  /** The agent that started it: the only one that may read its output or stop it. */
  readonly ownerId: string;
  readonly done: Promise<RunResult>;
  result: RunResult | undefined;
}

/** Background jobs of a session by id. Ownership is checked on every read and stop. */
export class BackgroundJobs {
  readonly #jobs = new Map<string, BackgroundJob>();
  #seq = 0;

  nextId(): string {
    return `bg-${++this.#seq}`;
  }

  add(job: BackgroundJob): void {
    this.#jobs.set(job.id, job);
    job.done.then((r) => {
      job.result = r;
    });
  }

  /** The job if `callerId` owns it; the same "no task" answer otherwise, so ids cannot be probed. */
  owned(id: string, callerId: string, where: string): BackgroundJob {
    const job = this.#jobs.get(id);
    if (!job || job.ownerId !== callerId) throw new UnknownTaskError(where, id);
    return job;
  }

  /** The job by id, whoever owns it (the host stopping a task). */
  get(id: string): BackgroundJob | undefined {
    return this.#jobs.get(id);
  }

  running(): BackgroundJob[] {
    return [...this.#jobs.values()].filter((j) => j.result === undefined);
  }
}
