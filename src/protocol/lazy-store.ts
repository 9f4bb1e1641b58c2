import type { ApprovedReview, QueuedReview, ReviewExecutionLedger, ReviewQueue } from '../gateway/index.js';
import type { AuditRecord, AuditSink, Store } from '../store/index.js';

/**
 * The store, opened on first use instead of at start-up: the stream-json engine answers
 * `initialize` and runs a turn that calls no tool without loading the query layer at all. Audit
 * records are buffered until the store is open (audit writes never block a decision); review
 * operations wait for it.
 */
export class LazyStore {
  private opening: Promise<Store> | undefined;
  private store: Store | undefined;
  private buffered: AuditRecord[] = [];
  private failed: unknown;

  constructor(private readonly open: () => Promise<Store>) {}

  private get(): Promise<Store> {
    if (!this.opening) {
      this.opening = this.open().then(
        (store) => {
          this.store = store;
          for (const rec of this.buffered.splice(0)) store.audit.record(rec);
          return store;
        },
        (err: unknown) => {
          this.failed = err;
          throw err;
        },
      );
      // the failure is reported where the store is awaited (flush, reviews, close)
      this.opening.catch(() => undefined);
    }
    return this.opening;
  }

  readonly audit: AuditSink = {
    record: (rec) => {
      if (this.store) this.store.audit.record(rec);
      else {
        this.buffered.push(rec);
        void this.get();
      }
    },
    flush: async () => {
      if (!this.opening && this.buffered.length === 0) return;
      const store = await this.get();
      await store.audit.flush();
    },
  };

  readonly reviews: ReviewQueue & ReviewExecutionLedger = {
    enqueue: async (item: QueuedReview) => (await this.get()).reviews.enqueue(item),
    claimForExecution: async (id: string) => (await this.get()).reviews.claimForExecution(id),
    complete: async (id: string, outcome: { status: 'executed' | 'failed'; resultSummary: string }) =>
      (await this.get()).reviews.complete(id, outcome),
  };

  /** Flushes and closes the store if it was ever opened. Throws if it failed to open with records pending. */
  async close(): Promise<void> {
    if (!this.opening) return;
    const store = await this.opening.catch(() => undefined);
    if (!store) {
      if (this.buffered.length > 0) throw this.failed;
      return;
    }
    await store.close();
  }
}

export type { ApprovedReview };
