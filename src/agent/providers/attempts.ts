import { InterruptedError, ProviderError } from '../errors.js';
import { abortableDelay } from './abortable-delay.js';
import {
  type AttemptTimeout,
  AttemptTimers,
  connectionCode,
  connectionError,
  type ModelServiceSettings,
  scrubDetail,
  statusError,
  timeoutError,
} from './model-service.js';
import { isRetryableStatus, type RetryPolicy, retryAfterMs, retryDelayMs } from './retry-policy.js';
import type { ModelDelta } from './types.js';

/** What every attempt of one turn shares. */
export interface AttemptPlan {
  /** `provider:model`, for errors. */
  readonly where: string;
  /** The service's address, for connection errors. */
  readonly endpoint: string;
  readonly service: ModelServiceSettings;
  readonly policy: RetryPolicy;
  /** The turn's signal: aborting it ends the turn as interrupted. */
  readonly signal: AbortSignal;
}

/**
 * Runs a model request with the behaviour every provider family shares: each attempt bounded by
 * the request and stream-idle timeouts ({@link AttemptTimers}), failures named in our words,
 * 429/5xx and connection errors retried with backoff (Retry-After honoured, each retry a `retry`
 * delta), never after text was streamed and never after a timeout, and the turn's abort ending it
 * as interrupted. `attempt` performs one request and yields its deltas.
 */
export async function* attemptTurn(
  plan: AttemptPlan,
  attempt: (timers: AttemptTimers) => AsyncIterable<ModelDelta>,
): AsyncIterable<ModelDelta> {
  for (let n = 0; ; n++) {
    if (plan.signal.aborted) throw new InterruptedError(plan.where);
    let yielded = false;
    const timers = new AttemptTimers(plan.signal, plan.service);
    try {
      for await (const delta of attempt(timers)) {
        // An aborted stream may just end: nothing read after the abort counts, least of all a
        // final message assembled from half a response.
        if (timers.signal.aborted) throw abortedAttempt(timers, plan);
        if (delta.type === 'text_delta') yielded = true;
        yield delta;
      }
      if (timers.signal.aborted) throw abortedAttempt(timers, plan);
      return;
    } catch (err) {
      if (plan.signal.aborted || err instanceof InterruptedError) throw new InterruptedError(plan.where);
      const failure = describeFailure(err, timers.timedOut, plan);
      if (yielded || n >= plan.policy.maxRetries || !retryable(failure)) throw failure;
      const delayMs = retryDelayMs(plan.policy, n + 1, serverDelay(err));
      yield {
        type: 'retry',
        attempt: n + 1,
        delayMs,
        reason: failure.message,
        ...(failure.status === undefined ? {} : { status: failure.status }),
      };
      await abortableDelay(delayMs, plan.signal, plan.where);
    } finally {
      timers.dispose();
    }
  }
}

/** Why an attempt's signal aborted: one of its timers, or the turn itself. */
function abortedAttempt(timers: AttemptTimers, plan: AttemptPlan): Error {
  return timers.timedOut && !plan.signal.aborted
    ? timeoutError(timers.timedOut, plan.service, plan.where)
    : new InterruptedError(plan.where);
}

/** An attempt's error in our words; what the service itself said is kept as the error's detail. */
function describeFailure(err: unknown, timedOut: AttemptTimeout, plan: AttemptPlan): ProviderError {
  // a timer that fired explains whatever the aborted read then threw
  if (timedOut) return timeoutError(timedOut, plan.service, plan.where);
  if (err instanceof ProviderError) return err;
  const status = statusOf(err);
  if (status !== undefined) return statusError(status, describe(err), plan.where, err);
  if (isConnectionError(err)) return connectionError(err, plan.endpoint, plan.where);
  return new ProviderError('the model service sent a response that could not be read', {
    where: plan.where,
    failure: 'bad_response',
    cause: err,
    detail: scrubDetail(describe(err)),
  });
}

/** Timeouts end a turn for good (a hung service hangs again); statuses and broken connections may pass. */
function retryable(err: ProviderError): boolean {
  if (err.failure === 'connection') return true;
  return err.failure === 'http' && isRetryableStatus(err.status);
}

/** The official clients' connection errors (no response at all), or a network error underneath. */
function isConnectionError(err: unknown): boolean {
  if (connectionCode(err)) return true;
  const name = err instanceof Error ? err.constructor.name : '';
  return name === 'APIConnectionError' || name === 'APIConnectionTimeoutError';
}

function statusOf(err: unknown): number | undefined {
  const s = (err as { status?: unknown } | null)?.status;
  return typeof s === 'number' ? s : undefined;
}

function serverDelay(err: unknown): number | undefined {
  const headers = (err as { headers?: unknown } | null)?.headers;
  if (!headers || typeof (headers as Headers).get !== 'function') return undefined;
  return retryAfterMs((name) => (headers as Headers).get(name));
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** `o` without its undefined properties, to lay over defaults. */
export function definedOnly<T extends object>(o: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Parsed JSON when the model wrote JSON; otherwise the raw text, which the gateway's schema stage refuses. */
export function parseArguments(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
