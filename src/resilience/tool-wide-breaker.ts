import type { BreakerState } from './breaker-state.js';

export interface ToolWideBreakerOptions {
  /**
   * How many tenants must each see the tool fail before it is refused to everyone (default 2): a
   * single tenant's calls — however many, however bad — can never open it for the others.
   */
  readonly minTenants?: number;
  /** Calls a tenant must have made in the window before its failure share counts (default 5). */
  readonly minTenantCalls?: number;
  /** A tenant counts as failing when more than this share of its calls were tool faults (default 30). */
  readonly errorThresholdPercentage?: number;
  /** The failing tenants' calls together must reach this volume too (default 20: the seed's 20 calls). */
  readonly volumeThreshold?: number;
  readonly windowMs?: number;
  readonly resetTimeoutMs?: number;
}

/** Call counts of one tenant over a rolling window of ten buckets. */
class TenantWindow {
  readonly calls = new Uint32Array(10);
  readonly faults = new Uint32Array(10);
  readonly epochs = new Float64Array(10).fill(-1);

  add(epoch: number, fault: boolean): void {
    const i = epoch % 10;
    if (this.epochs[i] !== epoch) {
      this.epochs[i] = epoch;
      this.calls[i] = 0;
      this.faults[i] = 0;
    }
    this.calls[i]!++;
    if (fault) this.faults[i]!++;
  }

  totals(epoch: number): { calls: number; faults: number } {
    let calls = 0;
    let faults = 0;
    for (let i = 0; i < 10; i++) {
      if (this.epochs[i]! > epoch - 10) {
        calls += this.calls[i]!;
        faults += this.faults[i]!;
      }
    }
    return { calls, faults };
  }
}

/** What `admit` lets through: a normal call, or the single trial call of a half-open breaker. */
export type Admission = 'closed' | 'trial' | false;

/**
 * The breaker of a tool as a whole, beside each tenant's own (docs/server.md, "Circuit breakers").
 * It counts only the tool's own faults (timeouts, slow calls, backend 5xx — see `isToolFault`) and
 * keeps them per tenant: it opens only when at least `minTenants` tenants each see more than the
 * threshold of their calls fail. Open, it refuses every tenant for `resetTimeoutMs`, then lets one
 * trial call through; a trial that is not a tool fault closes it.
 */
export class ToolWideBreaker {
  readonly #tenants = new Map<string, TenantWindow>();
  readonly #o: Required<ToolWideBreakerOptions>;
  readonly #bucketMs: number;
  #openUntil = 0;
  #open = false;
  #trialInFlight = false;

  constructor(
    options: ToolWideBreakerOptions = {},
    private readonly onChange: (state: 'open' | 'closed', resetMs: number) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {
    this.#o = {
      minTenants: options.minTenants ?? 2,
      minTenantCalls: options.minTenantCalls ?? 5,
      errorThresholdPercentage: options.errorThresholdPercentage ?? 30,
      volumeThreshold: options.volumeThreshold ?? 20,
      windowMs: options.windowMs ?? 60_000,
      resetTimeoutMs: options.resetTimeoutMs ?? 10_000,
    };
    if (!Number.isInteger(this.#o.minTenants) || this.#o.minTenants < 2) {
      // One tenant alone must never be able to open it: that is the point of this breaker.
      throw new RangeError(
        `tool-wide breaker minTenants must be an integer of at least 2, got ${options.minTenants}`,
      );
    }
    this.#bucketMs = Math.max(1, this.#o.windowMs / 10);
  }

  get state(): BreakerState {
    if (!this.#open) return 'closed';
    return this.now() < this.#openUntil ? 'open' : 'half_open';
  }

  /** Whether a call may run now; at most one trial at a time while half-open. */
  admit(): Admission {
    if (!this.#open) return 'closed';
    if (this.now() < this.#openUntil || this.#trialInFlight) return false;
    this.#trialInFlight = true;
    return 'trial';
  }

  /** An admitted call that never ran (another breaker refused it): a trial may be taken again. */
  abandon(admission: Admission): void {
    if (admission === 'trial') this.#trialInFlight = false;
  }

  /** Records how an admitted call ended. */
  record(tenant: string, fault: boolean, admission: Admission): void {
    if (admission === 'trial') {
      this.#trialInFlight = false;
      if (fault) this.#trip();
      else {
        this.#open = false;
        this.#tenants.clear();
        this.onChange('closed', 0);
      }
      return;
    }
    if (this.#open) return;
    const epoch = Math.floor(this.now() / this.#bucketMs);
    let w = this.#tenants.get(tenant);
    if (!w) {
      w = new TenantWindow();
      this.#tenants.set(tenant, w);
    }
    w.add(epoch, fault);
    // Judged on every call: a tenant reaching its minimum calls with a success can tip it too.
    if (this.#failingTenantsReachThreshold(epoch)) this.#trip();
  }

  #failingTenantsReachThreshold(epoch: number): boolean {
    let failing = 0;
    let volume = 0;
    for (const w of this.#tenants.values()) {
      const { calls, faults } = w.totals(epoch);
      if (calls >= this.#o.minTenantCalls && faults * 100 > calls * this.#o.errorThresholdPercentage) {
        failing++;
        volume += calls;
      }
    }
    return failing >= this.#o.minTenants && volume >= this.#o.volumeThreshold;
  }

  #trip(): void {
    this.#open = true;
    this.#openUntil = this.now() + this.#o.resetTimeoutMs;
    this.onChange('open', this.#o.resetTimeoutMs);
  }
}
