/**
 * A controller whose abort follows its parent's: cancelling a parent agent cancels every child.
 * The link is removed when the child is disposed so long-lived parents do not accumulate listeners.
 */
export interface LinkedController {
  readonly controller: AbortController;
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
  dispose(): void;
}

export function linkedController(...parents: readonly (AbortSignal | undefined)[]): LinkedController {
  const controller = new AbortController();
  const unlinks: (() => void)[] = [];
  for (const parent of parents) {
    if (!parent) continue;
    if (parent.aborted) {
      controller.abort(parent.reason);
      break;
    }
    const onAbort = () => controller.abort(parent.reason);
    parent.addEventListener('abort', onAbort, { once: true });
    unlinks.push(() => parent.removeEventListener('abort', onAbort));
  }
  return {
    controller,
    signal: controller.signal,
    abort: (reason?: unknown) => controller.abort(reason),
    dispose: () => {
      for (const u of unlinks) u();
      unlinks.length = 0;
    },
  };
}

/** Resolves when `signal` aborts; the listener is removed by calling the returned `off`. */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  if (signal.aborted) {
    fn();
    return () => {};
  }
  signal.addEventListener('abort', fn, { once: true });
  return () => signal.removeEventListener('abort', fn);
}
