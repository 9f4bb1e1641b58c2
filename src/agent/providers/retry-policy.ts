/**
 * When and how long to wait before retrying a model request. Pure: the provider supplies the
 * status and headers, this decides.
 */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 4, baseDelayMs: 500, maxDelayMs: 30_000 };

/** 408, 409, 429 and every 5xx are worth another try; other statuses are the caller's fault. */
export function isRetryableStatus(status: number | undefined): boolean {
  if (status === undefined) return true; // connection reset, DNS blip: no status at all
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Milliseconds the server asked us to wait, from `retry-after-ms`, or `retry-after` as seconds or
 * an HTTP date. `undefined` when absent or unreadable.
 */
export function retryAfterMs(
  header: (name: string) => string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  const ms = header('retry-after-ms');
  if (ms != null && ms.trim() !== '') {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  const ra = header('retry-after');
  if (ra == null || ra.trim() === '') return undefined;
  const secs = Number(ra);
  if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const date = Date.parse(ra);
  if (Number.isFinite(date)) return Math.max(0, date - now);
  return undefined;
}

/**
 * Delay before retry number `attempt` (1-based): the server's Retry-After when given (capped),
 * else exponential backoff with jitter in [50%, 100%] of the step.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  attempt: number,
  serverDelayMs: number | undefined,
  random: () => number = Math.random,
): number {
  if (serverDelayMs !== undefined) return Math.min(serverDelayMs, policy.maxDelayMs);
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(step * (0.5 + random() * 0.5));
}
