import { InterruptedError } from '../errors.js';

/** Waits `ms`, or rejects with `InterruptedError` (naming `where`) as soon as `signal` aborts. */
export function abortableDelay(ms: number, signal: AbortSignal, where: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new InterruptedError(where));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new InterruptedError(where));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
