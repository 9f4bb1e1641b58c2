import { randomUUID } from 'node:crypto';
import { TwinlineError } from '../core/index.js';
import type { AdmissionSlotRepository } from '../store/index.js';
import {
  type AdmissionLimits,
  estimateStart,
  FairQueue,
  type QueuedJob,
  RunningCounts,
  type RunningJob,
} from './fair-queue.js';

/** What a caller learns when its job is accepted: where it stands and roughly when it starts. */
export interface QueueTicket<T> {
  /** 0 when the job starts at once; otherwise its 1-based place in the fair order. */
  readonly position: number;
  /** Estimated wait before the job starts (per-tenant durations, played through the fair order). */
  readonly estimatedStartMs: number;
  /** Settles with the job's own result. */
  readonly done: Promise<T>;
}

/** Who a deep job belongs to, and (when it is a persisted task) its id. */
export interface AdmissionJob {
  readonly tenant: string;
  readonly user: string;
  readonly taskId?: string;
}

export interface DeepAdmissionOptions {
  readonly limits: AdmissionLimits;
  /** Jobs a tenant may have waiting; one more is refused with `AdmissionRefusedError` (default 1000). */
  readonly maxQueuedPerTenant?: number;
  /** Duration assumed for a tenant's jobs before any of its jobs has finished (default 60 s). */
  readonly initialEstimateMs?: number;
  /** Slots shared with every process of the deployment (the store, on PostgreSQL). */
  readonly slots?: AdmissionSlotRepository;
  /** Lifetime of a shared slot between renewals (default 30 s). */
  readonly slotTtlMs?: number;
  /** How soon to ask again when shared slots are all taken by other processes (default 250 ms). */
  readonly retryMs?: number;
}

/** A tenant already has as many deep tasks waiting as it may. */
export class AdmissionRefusedError extends TwinlineError {
  constructor(tenant: string, max: number) {
    super('deep.queue-full', `tenant ${tenant} already has ${max} deep tasks waiting; try again later`, {
      details: { tenant, maxQueuedPerTenant: max },
    });
  }
}

interface Waiting extends QueuedJob {
  readonly id: string;
  readonly run: () => Promise<unknown>;
  readonly resolve: (v: unknown) => void;
  readonly reject: (e: unknown) => void;
}

interface Active {
  readonly tenant: string;
  readonly user: string;
  readonly startedAt: number;
  readonly slotId?: string;
}

/**
 * Fair admission to the deep line (docs/lines.md, "Admission"): at most `concurrency` tasks run,
 * at most `perTenant` of one tenant and `perUser` of one user; over a cap a task is accepted and
 * waits in a fair queue — round-robin across tenants, then across each tenant's users — so a
 * tenant that queues many slow tasks delays its own, not another's. The position and estimate a
 * caller is told come from that order and from each tenant's own recent durations.
 *
 * With `slots` (the store on PostgreSQL) the caps hold across every process of the deployment;
 * without, in this process.
 */
export class DeepAdmission {
  readonly #queue = new FairQueue<Waiting>();
  readonly #active = new Map<string, Active>();
  readonly #limits: AdmissionLimits;
  readonly #maxQueued: number;
  readonly #initialMs: number;
  readonly #avgByTenant = new Map<string, number>();
  readonly #owner = `admission-${process.pid}-${randomUUID().slice(0, 8)}`;
  readonly #slotTtlMs: number;
  readonly #retryMs: number;
  #seq = 0;
  #pumping = false;
  #again = false;
  #retry: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #foreign: readonly { tenant: string; user: string }[] = [];
  #idle: (() => void)[] = [];
  #closed = false;

  constructor(private readonly options: DeepAdmissionOptions) {
    const { concurrency, perTenant, perUser } = options.limits;
    for (const [name, v] of Object.entries({ concurrency, perTenant, perUser })) {
      if (!Number.isInteger(v) || v < 1)
        throw new RangeError(`admission ${name} must be a positive integer, got ${v}`);
    }
    if (perTenant > concurrency || perUser > perTenant) {
      throw new RangeError(
        `admission caps must satisfy perUser ≤ perTenant ≤ concurrency, got ${perUser} ≤ ${perTenant} ≤ ${concurrency}`,
      );
    }
    this.#limits = options.limits;
    this.#maxQueued = options.maxQueuedPerTenant ?? 1000;
    this.#initialMs = options.initialEstimateMs ?? 60_000;
    this.#slotTtlMs = options.slotTtlMs ?? 30_000;
    this.#retryMs = options.retryMs ?? 250;
  }

  get limits(): AdmissionLimits {
    return this.#limits;
  }

  /** Jobs running now in this process. */
  get running(): number {
    return this.#active.size;
  }

  /** Jobs waiting to start in this process. */
  get waiting(): number {
    return this.#queue.size;
  }

  /** Whether `tenant` may queue one more job. */
  hasRoom(tenant: string): boolean {
    return this.#queue.sizeOf(tenant) < this.#maxQueued;
  }

  /**
   * Accepts a job for (tenant, user); it runs when the fair order reaches it and every cap has
   * room. Throws `AdmissionRefusedError` when the tenant's queue is full.
   */
  submit<T>(job: AdmissionJob, run: () => Promise<T>): QueueTicket<T> {
    if (!this.hasRoom(job.tenant)) throw new AdmissionRefusedError(job.tenant, this.#maxQueued);
    let resolve!: (v: unknown) => void;
    let reject!: (e: unknown) => void;
    const done = new Promise<T>((res, rej) => {
      resolve = res as (v: unknown) => void;
      reject = rej;
    });
    const waiting: Waiting = {
      tenant: job.tenant,
      user: job.user,
      seq: this.#seq++,
      // Per process and task: a task resumed elsewhere while this process's slot lapses counts twice
      // for a moment (never zero times).
      id: `${this.#owner}:${job.taskId ?? randomUUID()}`,
      run,
      resolve,
      reject,
    };
    this.#queue.push(waiting);
    const { position, startMs } = estimateStart(
      this.#queue,
      this.#runningForEstimate(),
      this.#limits,
      waiting,
      (t) => this.#durationOf(t),
    );
    void this.#pump();
    return { position, estimatedStartMs: startMs, done };
  }

  /**
   * Takes a task that has not started yet out of the queue (it was cancelled): its ticket settles
   * with undefined and it never runs. False when it is not waiting here.
   */
  cancel(taskId: string): boolean {
    const id = `${this.#owner}:${taskId}`;
    const job = this.#queue.all().find((j) => j.id === id);
    if (!job || !this.#queue.drop(job)) return false;
    job.resolve(undefined);
    this.#settleIdle();
    return true;
  }

  /** Resolves when nothing runs or waits here. */
  onIdle(): Promise<void> {
    if (this.#active.size === 0 && this.#queue.size === 0) return Promise.resolve();
    return new Promise((r) => this.#idle.push(r));
  }

  /** Stops retrying and renewing; running jobs finish, their slots are released as they end. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#retry);
    clearInterval(this.#heartbeat);
  }

  #durationOf(tenant: string): number {
    return this.#avgByTenant.get(tenant) ?? this.#initialMs;
  }

  #runningForEstimate(): RunningJob[] {
    const now = performance.now();
    const out: RunningJob[] = [];
    for (const a of this.#active.values()) {
      const avg = this.#durationOf(a.tenant);
      out.push({
        tenant: a.tenant,
        user: a.user,
        remainingMs: Math.max(avg - (now - a.startedAt), avg * 0.1),
      });
    }
    // Other processes' tasks hold shared slots too; how far along they are is unknown here.
    for (const f of this.#foreign) out.push({ ...f, remainingMs: this.#durationOf(f.tenant) / 2 });
    return out;
  }

  async #pump(): Promise<void> {
    if (!this.options.slots) {
      // In process the caps are counted here: start what fits now, synchronously, so a caller
      // is told its place from the order that really runs.
      while (!this.#closed && this.#startLocal()) {}
      return;
    }
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = true;
    try {
      do {
        this.#again = false;
        while (!this.#closed && (await this.#startShared(this.options.slots))) {}
      } while (this.#again);
    } finally {
      this.#pumping = false;
    }
  }

  #candidates(): Waiting[] {
    const local = RunningCounts.of(this.#active.values());
    return this.#queue.candidates((t, u) => local.allows(this.#limits, t, u));
  }

  #startLocal(): boolean {
    const next = this.#candidates()[0];
    if (!next) return false;
    this.#start(next, undefined);
    return true;
  }

  /**
   * Starts the next job of the fair order that every cap has room for — here (a pre-filter: the
   * local counts never exceed the shared ones) and in the shared slots; false when none can start.
   */
  async #startShared(slots: AdmissionSlotRepository): Promise<boolean> {
    const candidates = this.#candidates();
    if (candidates.length === 0) return false;
    const fullTenants = new Set<string>();
    for (const job of candidates) {
      if (fullTenants.has(job.tenant)) continue;
      let outcome: Awaited<ReturnType<typeof slots.tryAcquire>>;
      try {
        outcome = await slots.tryAcquire(
          { id: job.id, tenant: job.tenant, user: job.user, owner: this.#owner },
          this.#limits,
          this.#slotTtlMs,
        );
      } catch {
        // The store is unreachable: try again shortly rather than run past a cap.
        break;
      }
      if (outcome === 'acquired') {
        this.#start(job, job.id);
        return true;
      }
      if (outcome === 'full') break;
      if (outcome === 'tenant-full') fullTenants.add(job.tenant);
    }
    // Every candidate waits on slots other processes hold: ask again when some may have ended.
    await this.#refreshForeign();
    this.#scheduleRetry();
    return false;
  }

  #start(job: Waiting, slotId: string | undefined): void {
    this.#queue.take(job);
    const key = `${job.seq}`;
    this.#active.set(key, {
      tenant: job.tenant,
      user: job.user,
      startedAt: performance.now(),
      ...(slotId ? { slotId } : {}),
    });
    if (slotId) this.#ensureHeartbeat();
    const started = performance.now();
    Promise.resolve()
      .then(() => job.run())
      .then(job.resolve, job.reject)
      .finally(() => {
        const ms = performance.now() - started;
        const avg = this.#avgByTenant.get(job.tenant);
        this.#avgByTenant.set(job.tenant, avg === undefined ? ms : 0.8 * avg + 0.2 * ms);
        this.#active.delete(key);
        const release = slotId ? this.options.slots?.release(slotId, this.#owner) : undefined;
        void Promise.resolve(release)
          .catch(() => {})
          .then(() => {
            this.#settleIdle();
            return this.#pump();
          });
      });
  }

  #ensureHeartbeat(): void {
    if (this.#heartbeat || !this.options.slots) return;
    const slots = this.options.slots;
    this.#heartbeat = setInterval(
      () => {
        if (![...this.#active.values()].some((a) => a.slotId)) {
          clearInterval(this.#heartbeat);
          this.#heartbeat = undefined;
          return;
        }
        slots.renew(this.#owner, this.#slotTtlMs).catch(() => {});
      },
      Math.max(50, Math.floor(this.#slotTtlMs / 3)),
    );
    this.#heartbeat.unref();
  }

  async #refreshForeign(): Promise<void> {
    try {
      this.#foreign = (await this.options.slots?.heldByOthers(this.#owner)) ?? [];
    } catch {
      // keep the last known view
    }
  }

  #scheduleRetry(): void {
    if (this.#retry || this.#closed || this.#queue.size === 0) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.#pump();
    }, this.#retryMs);
    this.#retry.unref();
  }

  #settleIdle(): void {
    if (this.#active.size > 0 || this.#queue.size > 0) return;
    for (const r of this.#idle.splice(0)) r();
  }
}
