import CircuitBreaker from 'opossum';
import type { BreakerState } from './breaker-state.js';
import type { SharedBreakerState } from './shared-breaker-state.js';
import { isToolFault, ToolTimeoutError } from './tool-fault.js';
import { ToolWideBreaker, type ToolWideBreakerOptions } from './tool-wide-breaker.js';

export type { BreakerState } from './breaker-state.js';

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
  /**
   * The tool-wide breaker (defaults: the settings above, opened only by two or more failing
   * tenants). It sees only the tool's own faults.
   */
  readonly toolWide?: ToolWideBreakerOptions;
  /** Share open/closed transitions with other processes (Redis). */
  readonly shared?: SharedBreakerState;
}

/** Which breaker refused a call: the caller's tenant's own, or the tool's as a whole. */
export type BreakerScopeName = 'tenant' | 'tool';

/** Thrown by `ToolBreakers.run` when a breaker is open; the gateway turns it into a decision. */
export class BreakerOpenError extends Error {
  readonly code = 'EOPENBREAKER';
  constructor(
    readonly tool: string,
    readonly scope: BreakerScopeName = 'tenant',
  ) {
    super(`Tool ${tool} is temporarily unavailable (circuit open).`);
  }
}

/** One tenant's view of a tool's breakers (`GET /v1/breakers`). */
export interface TenantBreakerRow {
  readonly tool: string;
  /** The state that decides this tenant's calls: open if either breaker is open. */
  readonly state: BreakerState;
  /** This tenant's own breaker of the tool. */
  readonly tenantState: BreakerState;
  /** The tool-wide breaker (its counts are other tenants' business and are not shown). */
  readonly toolState: BreakerState;
  /** This tenant's failed and successful calls in the window. */
  readonly failures: number;
  readonly successes: number;
}

/** A tool's breakers with no tenant named (metrics). */
export interface ToolBreakerOverview {
  readonly tool: string;
  readonly toolState: BreakerState;
  /** How many tenants' own breakers of the tool are open. */
  readonly tenantsOpen: number;
  /** How many are half-open (waiting for their trial call). */
  readonly tenantsHalfOpen: number;
}

/** Carries a slow call's real result through opossum so the breaker counts it as a failure. */
class SlowCall {
  constructor(readonly result: unknown) {}
}

type Action = () => Promise<unknown>;

const worse = (a: BreakerState, b: BreakerState): BreakerState =>
  a === 'open' || b === 'open' ? 'open' : a === 'half_open' || b === 'half_open' ? 'half_open' : 'closed';

/**
 * Circuit breakers per (tenant, tool), plus one tool-wide breaker per tool (docs/server.md).
 *
 * A tenant's breaker is an `opossum` breaker that counts every failure of that tenant's calls —
 * errors, timeouts, slow calls: with `volumeThreshold` 20 and a 30% threshold that is the seed's
 * "more than 30% of the last 20 calls failed or were too slow", counted over a rolling window.
 * Open, it refuses that tenant only. The tool-wide breaker (`ToolWideBreaker`) counts only the
 * tool's own faults, per tenant, and opens for everyone only when several tenants see the tool
 * fail — so one tenant's bad arguments or probing never make a tool unavailable to another.
 */
export class ToolBreakers {
  readonly #tenants = new Map<string, Map<string, CircuitBreaker<[Action], unknown>>>();
  readonly #tools = new Map<string, ToolWideBreaker>();
  private readonly options: Required<Omit<BreakerOptions, 'shared' | 'toolWide'>>;
  readonly #toolWide: ToolWideBreakerOptions;
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
    this.#toolWide = {
      errorThresholdPercentage: this.options.errorThresholdPercentage,
      volumeThreshold: this.options.volumeThreshold,
      windowMs: this.options.windowMs,
      resetTimeoutMs: this.options.resetTimeoutMs,
      ...options.toolWide,
    };
    // Fail at construction, not on the first call, when the tool-wide settings cannot hold.
    new ToolWideBreaker(this.#toolWide);
  }

  /** State of a tenant's own breaker of a tool (`closed` for one never called). */
  state(tenant: string, tool: string): BreakerState {
    const b = this.#tenants.get(tenant)?.get(tool);
    if (!b) return 'closed';
    if (b.opened) return 'open';
    if (b.halfOpen) return 'half_open';
    return 'closed';
  }

  /** State of a tool's tool-wide breaker. */
  toolState(tool: string): BreakerState {
    return this.#tools.get(tool)?.state ?? 'closed';
  }

  /** A tenant's own rows: every tool it called, and every tool whose tool-wide breaker is not closed. */
  snapshot(tenant: string): TenantBreakerRow[] {
    const own = this.#tenants.get(tenant) ?? new Map<string, CircuitBreaker<[Action], unknown>>();
    const tools = new Set([...own.keys()]);
    for (const [tool, wide] of this.#tools) if (wide.state !== 'closed') tools.add(tool);
    return [...tools].sort().map((tool) => {
      const b = own.get(tool);
      const tenantState = this.state(tenant, tool);
      const toolState = this.toolState(tool);
      return {
        tool,
        state: worse(tenantState, toolState),
        tenantState,
        toolState,
        failures: b ? b.stats.failures + b.stats.timeouts : 0,
        successes: b ? b.stats.successes : 0,
      };
    });
  }

  /** Per tool, without naming any tenant: the tool-wide state and how many tenants' breakers are open. */
  overview(): ToolBreakerOverview[] {
    const tools = new Set<string>(this.#tools.keys());
    for (const own of this.#tenants.values()) for (const t of own.keys()) tools.add(t);
    return [...tools].sort().map((tool) => {
      let tenantsOpen = 0;
      let tenantsHalfOpen = 0;
      for (const [tenant, own] of this.#tenants) {
        if (!own.has(tool)) continue;
        const state = this.state(tenant, tool);
        if (state === 'open') tenantsOpen++;
        else if (state === 'half_open') tenantsHalfOpen++;
      }
      return { tool, toolState: this.toolState(tool), tenantsOpen, tenantsHalfOpen };
    });
  }

  /**
   * Runs `action` under the tenant's breaker of the tool and the tool-wide one. Rejects with
   * `BreakerOpenError` when either is open; with `timeoutMs`, a call still running then fails
   * with `ToolTimeoutError` (its late result is dropped). A failure or a slow success counts
   * against the tenant's breaker; a tool fault (`isToolFault`) also against the tool-wide one. A
   * slow success still returns its result.
   */
  async run<T>(
    tenant: string,
    tool: string,
    action: () => Promise<T>,
    options: { readonly timeoutMs?: number } = {},
  ): Promise<T> {
    const breaker = this.#breakerFor(tenant, tool);
    const wide = this.#toolWideFor(tool);
    const admission = wide.admit();
    if (admission === false) throw new BreakerOpenError(tool, 'tool');
    const slowMs = this.options.slowCallMs;
    let ran = false;
    let fault = false;
    try {
      return (await breaker.fire(async () => {
        ran = true;
        const started = performance.now();
        let result: T;
        try {
          result = await withDeadline(action(), tool, options.timeoutMs);
        } catch (err) {
          fault = isToolFault(err);
          throw err;
        }
        if (performance.now() - started > slowMs) {
          fault = true;
          throw new SlowCall(result);
        }
        return result;
      })) as T;
    } catch (err) {
      if (err instanceof SlowCall) return err.result as T;
      if ((err as { code?: string })?.code === 'EOPENBREAKER') throw new BreakerOpenError(tool, 'tenant');
      throw err;
    } finally {
      // A call the tenant's breaker refused never ran: it tells the tool-wide breaker nothing.
      if (ran) wide.record(tenant, fault, admission);
      else wide.abandon(admission);
    }
  }

  /** Stops every breaker's timers (process shutdown, tests). */
  shutdown(): void {
    for (const own of this.#tenants.values()) for (const b of own.values()) b.shutdown();
    this.#tenants.clear();
    this.#tools.clear();
  }

  #breakerFor(tenant: string, tool: string): CircuitBreaker<[Action], unknown> {
    let own = this.#tenants.get(tenant);
    if (!own) {
      own = new Map();
      this.#tenants.set(tenant, own);
    }
    let b = own.get(tool);
    if (!b) {
      b = new CircuitBreaker((action: Action) => action(), {
        timeout: false,
        errorThresholdPercentage: this.options.errorThresholdPercentage,
        volumeThreshold: this.options.volumeThreshold,
        rollingCountTimeout: this.options.windowMs,
        rollingCountBuckets: 10,
        resetTimeout: this.options.resetTimeoutMs,
        name: `${tenant}/${tool}`,
      });
      // A rejected fire is reported to the caller; opossum's own event would otherwise be unhandled noise.
      b.on('failure', () => {});
      if (this.shared) {
        const shared = this.shared;
        const scope = { tenant, tool };
        b.on('open', () => void shared.markOpen(scope, this.options.resetTimeoutMs).catch(() => {}));
        b.on('close', () => void shared.markClosed(scope).catch(() => {}));
      }
      own.set(tool, b);
    }
    return b;
  }

  #toolWideFor(tool: string): ToolWideBreaker {
    let wide = this.#tools.get(tool);
    if (!wide) {
      const shared = this.shared;
      wide = new ToolWideBreaker(this.#toolWide, (state, ms) => {
        if (!shared) return;
        const write = state === 'open' ? shared.markOpen({ tool }, ms) : shared.markClosed({ tool });
        void write.catch(() => {});
      });
      this.#tools.set(tool, wide);
    }
    return wide;
  }
}

function withDeadline<T>(work: Promise<T>, tool: string, timeoutMs: number | undefined): Promise<T> {
  if (timeoutMs === undefined || !Number.isFinite(timeoutMs) || timeoutMs <= 0) return work;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ToolTimeoutError(tool, timeoutMs)), timeoutMs);
    work.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
