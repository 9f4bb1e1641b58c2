/**
 * Tracks the timers and promises an agent tree starts, so cancellation can be proven complete:
 * tests assert `pending()` is empty after a tree is cancelled. Every timer the runtime arms goes
 * through `setTimer`; every detached promise (background agents, bubbled approvals) through `track`.
 */
export class ResourceTracker {
  readonly #timers = new Map<NodeJS.Timeout, string>();
  readonly #promises = new Map<Promise<unknown>, string>();
  readonly #idleWaiters = new Set<() => void>();

  /** Arms a timer that is forgotten when it fires or is cleared through the returned function. */
  setTimer(label: string, ms: number, fn: () => void): () => void {
    const handle = setTimeout(() => {
      this.#timers.delete(handle);
      this.#checkIdle();
      fn();
    }, ms);
    this.#timers.set(handle, label);
    return () => {
      if (this.#timers.delete(handle)) {
        clearTimeout(handle);
        this.#checkIdle();
      }
    };
  }

  /** Registers a promise until it settles. Returns the same promise. */
  track<T>(label: string, promise: Promise<T>): Promise<T> {
    this.#promises.set(promise, label);
    const forget = () => {
      this.#promises.delete(promise);
      this.#checkIdle();
    };
    promise.then(forget, forget);
    return promise;
  }

  /** Labels of timers and promises still outstanding. */
  pending(): { timers: string[]; promises: string[] } {
    return { timers: [...this.#timers.values()], promises: [...this.#promises.values()] };
  }

  /** Resolves when no timer or promise is outstanding. */
  idle(): Promise<void> {
    if (this.#timers.size === 0 && this.#promises.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.add(resolve));
  }

  #checkIdle(): void {
    if (this.#timers.size !== 0 || this.#promises.size !== 0) return;
    // Settle waiters after the current callbacks so `pending()` is consistent for them.
    queueMicrotask(() => {
      if (this.#timers.size !== 0 || this.#promises.size !== 0) return;
      for (const w of this.#idleWaiters) w();
      this.#idleWaiters.clear();
    });
  }
}
