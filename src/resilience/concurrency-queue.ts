import PQueue from 'p-queue';

/** What a caller learns when its job is accepted: where it stands and roughly when it starts. */
export interface QueueTicket<T> {
  /** 0 when the job starts at once; otherwise its 1-based place in line. */
  readonly position: number;
  /** Estimated wait before the job starts, from the moving average of recent job durations. */
  readonly estimatedStartMs: number;
  /** Settles with the job's own result. */
  readonly done: Promise<T>;
}

export interface ConcurrencyQueueOptions {
  readonly concurrency: number;
  /** Duration assumed for jobs before any has finished. */
  readonly initialEstimateMs?: number;
}

/**
 * A global concurrency limit with a queue (`p-queue`): over the limit a job is accepted, not
 * refused, and the caller is told its position and an estimated start ("task accepted, expected in
 * ~N min"). Durations feed an exponential moving average so the estimate follows the real load.
 */
export class ConcurrencyQueue {
  private readonly queue: PQueue;
  private averageMs: number;

  constructor(private readonly options: ConcurrencyQueueOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      throw new RangeError(`concurrency must be a positive integer, got ${options.concurrency}`);
    }
    this.queue = new PQueue({ concurrency: options.concurrency });
    this.averageMs = options.initialEstimateMs ?? 60_000;
  }

  /** Jobs running now. */
  get running(): number {
    return this.queue.pending;
  }

  /** Jobs waiting to start. */
  get waiting(): number {
    return this.queue.size;
  }

  /** Accepts a job; it runs when a slot is free. */
  submit<T>(job: () => Promise<T>): QueueTicket<T> {
    // 1-based place in line; 0 when a slot is free now.
    const position = this.queue.pending < this.options.concurrency ? 0 : this.queue.size + 1;
    const estimatedStartMs =
      position === 0 ? 0 : Math.round(Math.ceil(position / this.options.concurrency) * this.averageMs);
    const done = this.queue.add(async () => {
      const started = performance.now();
      try {
        return await job();
      } finally {
        this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - started);
      }
    }) as Promise<T>;
    return { position, estimatedStartMs, done };
  }

  /** Resolves when every accepted job has finished. */
  onIdle(): Promise<void> {
    return this.queue.onIdle();
  }
}
