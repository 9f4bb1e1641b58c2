import CircuitBreaker from 'opossum';
import type { SharedBreakerState } from './shared-breaker-state.js';

/** The state a breaker reports, for the gateway decision, the console and `/metrics`. */
export type BreakerState = 'closed' | 'open' | 'half_open';

export interface BreakerOptions {
  /** Open when more than this share of calls in the window failed or were too slow (seed: 30%). */
  readonly errorThresholdPercentage?: number;
  /** Calls needed in the window before the breaker may open (seed: the last 20 calls). */
  readonly volumeThreshold?: number;
  /** A successful call slower than this counts as a failure. */
  readonly slowCallMs?: number;
  /** Rolling window over which calls are counted. */
  readonly windowMs?: number;
  /** How long an open breaker waits before letting one trial call through (half-open). */
  readonly resetTimeoutMs?: number;
  /** Share open/closed transitions with other processes (Redis). */
  readonly shared?: SharedBreakerState;
}

/** Thrown by `ToolBreakers.run` when the tool's breaker is open; the gateway turns it into a decision. */
export class BreakerOpenError extends Error {
  readonly code = 'EOPENBREAKER';
  constructor(readonly tool: string) {
    super(`Tool ${tool} is temporarily unavailable (circuit open).`);
  }
}

/** Carries a slow call's real result through opossum so the breaker counts it as a failure. */
class SlowCall {
  constructor(readonly result: unknown) {}
}

type Action = () => Promise<unknown>;

/**
 * One `opossum` circuit breaker per tool. Opossum counts calls in a rolling time window; with
 * `volumeThreshold` 20 and a 30% threshold that is the seed's "more than 30% of the last 20 calls
 * failed or were too slow", counted over the window rather than strictly the last 20.
 */
export class ToolBreakers {
  private readonly breakers = new Map<string, CircuitBreaker<[Action], unknown>>();
  private readonly options: Required<Omit<BreakerOptions, 'shared'>>;
  /** Transitions shared with other processes, when configured. */
  readonly shared: SharedBreakerState | undefined;

  constructor(options: BreakerOptions = {}) {
    this.shared = options.shared;
    this.options = {
      errorThresholdPercentage: options.errorThresholdPercentage ?? 30,
      volumeThreshold: options.volumeThreshold ?? 20,
      slowCallMs: options.slowCallMs ?? 5_000,
      windowMs: options.windowMs ?? 60_000,
      resetTimeoutMs: options.resetTimeoutMs ?? 10_000,
    };
  }

  /** Current state of a tool's breaker (`closed` for a tool never called). */
  state(tool: string): BreakerState {
    const b = this.breakers.get(tool);
    if (!b) return 'closed';
    if (b.opened) return 'open';
    if (b.halfOpen) return 'half_open';
    return 'closed';
  }

  /** Every breaker that has seen a call, with its state and counts. */
  snapshot(): Array<{ tool: string; state: BreakerState; failures: number; successes: number }> {
    return [...this.breakers].map(([tool, b]) => ({
      tool,
      state: this.state(tool),
      failures: b.stats.failures + b.stats.timeouts,
      successes: b.stats.successes,
    }));
  }

  /**
   * Runs `action` under the tool's breaker. Rejects with `BreakerOpenError` when open; a failure or a
   * slow success is counted against the tool, but a slow success still returns its result.
   */
  async run<T>(tool: string, action: () => Promise<T>): Promise<T> {
    const breaker = this.breakerFor(tool);
    const slowMs = this.options.slowCallMs;
    try {
      return (await breaker.fire(async () => {
        const started = performance.now();
        const result = await action();
        if (performance.now() - started > slowMs) throw new SlowCall(result);
        return result;
      })) as T;
    } catch (err) {
      if (err instanceof SlowCall) return err.result as T;
      if ((err as { code?: string })?.code === 'EOPENBREAKER') throw new BreakerOpenError(tool);
      throw err;
    }
  }

  /** Stops every breaker's timers (process shutdown, tests). */
  shutdown(): void {
    for (const b of this.breakers.values()) b.shutdown();
    this.breakers.clear();
  }

  private breakerFor(tool: string): CircuitBreaker<[Action], unknown> {
    let b = this.breakers.get(tool);
    if (!b) {
      b = new CircuitBreaker((action: Action) => action(), {
        timeout: false,
        errorThresholdPercentage: this.options.errorThresholdPercentage,
        volumeThreshold: this.options.volumeThreshold,
        rollingCountTimeout: this.options.windowMs,
        rollingCountBuckets: 10,
        resetTimeout: this.options.resetTimeoutMs,
        name: tool,
      });
      // A rejected fire is reported to the caller; opossum's own event would otherwise be unhandled noise.
      b.on('failure', () => {});
      if (this.shared) {
        const shared = this.shared;
        b.on('open', () => void shared.markOpen(tool, this.options.resetTimeoutMs).catch(() => {}));
        b.on('close', () => void shared.markClosed(tool).catch(() => {}));
      }
      this.breakers.set(tool, b);
    }
    return b;
  }
}
