import type { AuditRecord, AuditSink } from './audit-record.js';
import type { AuditWriterOptions } from './store-target.js';

/** Writes one batch durably, or rejects. Must be idempotent per record id (retries re-send). */
export type AuditBatchWrite = (batch: readonly AuditRecord[]) => Promise<void>;

/** Counters of the audit writer, for health checks and tests. */
export interface AuditWriterStats {
  /** Records accepted by `record` since start. */
  readonly recorded: number;
  /** Records written durably. */
  readonly written: number;
  /** Records waiting in memory. */
  readonly pending: number;
  /** Records refused because `maxBuffered` was reached while the database was failing, or sent after close. */
  readonly dropped: number;
  /** Failed batch writes (each retried). */
  readonly failedWrites: number;
  readonly lastError: string | undefined;
}

/**
 * The gateway's audit sink: `record` only appends to memory (it never awaits, never throws), and a
 * single writer drains the buffer in batches — when `batchSize` records are waiting, or
 * `maxDelayMs` after the first waiting one. A failed batch stays at the head of the buffer and is
 * retried with exponential backoff, so nothing is lost while the database recovers; only if the
 * buffer reaches `maxBuffered` are new records refused, and each refusal is counted in `dropped`.
 */
export class BatchedAuditWriter implements AuditSink {
  private readonly batchSize: number;
  private readonly maxDelayMs: number;
  private readonly maxBuffered: number;
  private readonly minBackoffMs: number;
  private readonly maxBackoffMs: number;
  private buffer: AuditRecord[] = [];
  private recorded = 0;
  private written = 0;
  private dropped = 0;
  private failedWrites = 0;
  private lastError: string | undefined;
  private draining = false;
  private timer: NodeJS.Timeout | undefined;
  private waiters: { target: number; resolve: () => void }[] = [];
  private closed = false;

  constructor(
    private readonly write: AuditBatchWrite,
    options: AuditWriterOptions = {},
  ) {
    this.batchSize = Math.max(1, options.batchSize ?? 256);
    this.maxDelayMs = Math.max(0, options.maxDelayMs ?? 20);
    this.maxBuffered = Math.max(this.batchSize, options.maxBuffered ?? 100_000);
    this.minBackoffMs = Math.max(1, options.minBackoffMs ?? 10);
    this.maxBackoffMs = Math.max(this.minBackoffMs, options.maxBackoffMs ?? 1000);
  }

  record(rec: AuditRecord): void {
    try {
      if (this.closed || this.buffer.length >= this.maxBuffered) {
        this.dropped++;
        return;
      }
      this.buffer.push(rec);
      this.recorded++;
      this.schedule();
    } catch {
      // The decision path must never fail because of the audit; a failure here is a drop.
      this.dropped++;
    }
  }

  flush(): Promise<void> {
    const target = this.recorded;
    if (this.written >= target) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push({ target, resolve });
      this.startDrain();
    });
  }

  /** Flushes, then refuses further records (each counted in `dropped`): the database is about to go. */
  async close(): Promise<void> {
    // Records may arrive while a flush is under way; only stop once none is left unwritten.
    while (this.written < this.recorded) await this.flush();
    this.closed = true;
  }

  stats(): AuditWriterStats {
    return {
      recorded: this.recorded,
      written: this.written,
      pending: this.buffer.length,
      dropped: this.dropped,
      failedWrites: this.failedWrites,
      lastError: this.lastError,
    };
  }

  private schedule(): void {
    if (this.draining) return;
    if (this.buffer.length >= this.batchSize) {
      this.startDrain();
    } else if (!this.timer) {
      this.timer = setTimeout(() => this.startDrain(), this.maxDelayMs);
    }
  }

  private startDrain(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.draining) return;
    this.draining = true;
    // Let the current tick's producers finish appending, so the first batch is a full one.
    setImmediate(() => void this.drain());
  }

  private async drain(): Promise<void> {
    let attempt = 0;
    try {
      while (this.buffer.length > 0) {
        const batch = this.buffer.slice(0, this.batchSize);
        try {
          await this.write(batch);
        } catch (error) {
          this.failedWrites++;
          this.lastError = error instanceof Error ? error.message : String(error);
          const backoff = Math.min(this.maxBackoffMs, this.minBackoffMs * 2 ** attempt++);
          await new Promise<void>((r) => setTimeout(r, backoff).unref());
          continue;
        }
        attempt = 0;
        this.buffer.splice(0, batch.length);
        this.written += batch.length;
        this.resolveWaiters();
      }
    } finally {
      this.draining = false;
      this.resolveWaiters();
      if (this.buffer.length > 0) this.schedule();
    }
  }

  private resolveWaiters(): void {
    if (this.waiters.length === 0) return;
    const still: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (this.written >= w.target) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }
}
