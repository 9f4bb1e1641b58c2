/**
 * The fair order of deep-line admission, pure: round-robin across tenants, then round-robin
 * across each tenant's users, then first come first served; a tenant or user at its cap is
 * skipped, not waited for (docs/lines.md, "Admission").
 */

/** Caps on jobs running at once. */
export interface AdmissionLimits {
  /** In all (every process, when the slots are shared). */
  readonly concurrency: number;
  /** Per tenant. */
  readonly perTenant: number;
  /** Per user of a tenant. */
  readonly perUser: number;
}

/** A job waiting for admission. `seq` orders and identifies it. */
export interface QueuedJob {
  readonly tenant: string;
  readonly user: string;
  readonly seq: number;
}

/** How many jobs run now, per tenant and per (tenant, user). */
export class RunningCounts {
  total = 0;
  readonly byTenant = new Map<string, number>();
  readonly byUser = new Map<string, number>();

  static of(jobs: Iterable<{ readonly tenant: string; readonly user: string }>): RunningCounts {
    const c = new RunningCounts();
    for (const j of jobs) c.add(j.tenant, j.user, 1);
    return c;
  }

  add(tenant: string, user: string, n: number): void {
    this.total += n;
    this.byTenant.set(tenant, (this.byTenant.get(tenant) ?? 0) + n);
    const k = userKey(tenant, user);
    this.byUser.set(k, (this.byUser.get(k) ?? 0) + n);
  }

  /** Whether one more job of (tenant, user) stays within `limits`. */
  allows(limits: AdmissionLimits, tenant: string, user: string): boolean {
    return (
      this.total < limits.concurrency &&
      (this.byTenant.get(tenant) ?? 0) < limits.perTenant &&
      (this.byUser.get(userKey(tenant, user)) ?? 0) < limits.perUser
    );
  }
}

export function userKey(tenant: string, user: string): string {
  return `${tenant}\u0000${user}`;
}

interface UserLine<J> {
  readonly user: string;
  readonly jobs: J[];
}

interface TenantLine<J> {
  readonly tenant: string;
  readonly users: UserLine<J>[];
  /** Index of the user to serve next. */
  cursor: number;
  size: number;
}

/** Waiting jobs in fair order. */
export class FairQueue<J extends QueuedJob> {
  #tenants: TenantLine<J>[] = [];
  /** Index of the tenant to serve next. */
  #cursor = 0;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Jobs waiting for `tenant`. */
  sizeOf(tenant: string): number {
    return this.#tenants.find((t) => t.tenant === tenant)?.size ?? 0;
  }

  push(job: J): void {
    let t = this.#tenants.find((x) => x.tenant === job.tenant);
    if (!t) {
      t = { tenant: job.tenant, users: [], cursor: 0, size: 0 };
      // A tenant with nothing waiting joins as the next one served: a light tenant's occasional
      // task never waits a round behind a tenant with a backlog.
      this.#tenants.splice(this.#cursor, 0, t);
    }
    let u = t.users.find((x) => x.user === job.user);
    if (!u) {
      // Likewise within a tenant: a user with nothing waiting is served next.
      u = { user: job.user, jobs: [] };
      t.users.splice(t.cursor, 0, u);
    }
    u.jobs.push(job);
    t.size++;
    this.#size++;
  }

  /** The job the fair order starts next among those `startable` allows, without removing it. */
  peek(startable: (tenant: string, user: string) => boolean): J | undefined {
    for (const job of this.#order(startable)) return job;
    return undefined;
  }

  /**
   * Every job in the order they would be tried now — the fair pick first, then the rest of each
   * round — for a caller that must try candidates one by one (shared slots can refuse one).
   */
  candidates(startable: (tenant: string, user: string) => boolean): J[] {
    return [...this.#order(startable)];
  }

  /** Each (tenant, user)'s first waiting job, tenants from the cursor on, users from theirs. */
  *#order(startable: (tenant: string, user: string) => boolean): Generator<J> {
    const n = this.#tenants.length;
    for (let k = 0; k < n; k++) {
      const t = this.#tenants[(this.#cursor + k) % n]!;
      const m = t.users.length;
      for (let j = 0; j < m; j++) {
        const u = t.users[(t.cursor + j) % m]!;
        if (u.jobs.length > 0 && startable(t.tenant, u.user)) yield u.jobs[0]!;
      }
    }
  }

  /** Every waiting job (no particular order). */
  all(): J[] {
    return this.#tenants.flatMap((t) => t.users.flatMap((u) => u.jobs));
  }

  /** Removes `job` and moves both round-robin cursors past its tenant and user. */
  take(job: J): void {
    const ti = this.#tenants.findIndex((t) => t.tenant === job.tenant);
    if (ti < 0) return;
    const t = this.#tenants[ti]!;
    const ui = t.users.findIndex((u) => u.user === job.user);
    if (ui < 0) return;
    const u = t.users[ui]!;
    const at = u.jobs.indexOf(job);
    if (at < 0) return;
    u.jobs.splice(at, 1);
    t.size--;
    this.#size--;
    t.cursor = ui + 1;
    if (u.jobs.length === 0) {
      t.users.splice(ui, 1);
      t.cursor = ui;
    }
    if (t.cursor >= t.users.length) t.cursor = 0;
    this.#cursor = ti + 1;
    if (t.size === 0) {
      this.#tenants.splice(ti, 1);
      this.#cursor = ti;
    }
    if (this.#cursor >= this.#tenants.length) this.#cursor = 0;
  }

  /** Removes a job that will not run after all (cancelled, refused), keeping the cursors fair. */
  drop(job: J): boolean {
    const t = this.#tenants.find((x) => x.tenant === job.tenant);
    const u = t?.users.find((x) => x.user === job.user);
    if (!t || !u?.jobs.includes(job)) return false;
    const cursor = this.#cursor;
    const tenant = this.#tenants[cursor]?.tenant;
    const userCursor = t.cursor;
    const nextUser = t.users[userCursor]?.user;
    this.take(job);
    // Dropping is not serving: put the cursors back on whom they pointed at.
    const ti = tenant === undefined ? -1 : this.#tenants.findIndex((x) => x.tenant === tenant);
    if (ti >= 0) this.#cursor = ti;
    const stillThere = this.#tenants.find((x) => x.tenant === job.tenant);
    if (stillThere && nextUser !== undefined) {
      const ui = stillThere.users.findIndex((x) => x.user === nextUser);
      if (ui >= 0) stillThere.cursor = ui;
    }
    return true;
  }

  /** An independent copy (for estimating when a job starts). */
  clone(): FairQueue<J> {
    const q = new FairQueue<J>();
    q.#tenants = this.#tenants.map((t) => ({
      tenant: t.tenant,
      cursor: t.cursor,
      size: t.size,
      users: t.users.map((u) => ({ user: u.user, jobs: [...u.jobs] })),
    }));
    q.#cursor = this.#cursor;
    q.#size = this.#size;
    return q;
  }
}

/** A job that runs now, with how long it is still expected to take. */
export interface RunningJob {
  readonly tenant: string;
  readonly user: string;
  readonly remainingMs: number;
}

/**
 * When `target` (already in `queue`) would start, by playing the fair order forward: free slots
 * are filled as the order picks, and time moves to the next expected finish. Durations come per
 * tenant (`durationOf`), so one tenant's slow tasks lengthen only the estimates of whoever really
 * waits behind them. Returns the 1-based number of waiting jobs that start before it plus one
 * (0 when it starts at once) and the expected wait.
 */
export function estimateStart<J extends QueuedJob>(
  queue: FairQueue<J>,
  running: readonly RunningJob[],
  limits: AdmissionLimits,
  target: J,
  durationOf: (tenant: string) => number,
): { position: number; startMs: number } {
  const q = queue.clone();
  const run = running.map((r) => ({ ...r }));
  let t = 0;
  let before = 0;
  for (let guard = 0; guard < 100_000; guard++) {
    const counts = RunningCounts.of(run);
    for (;;) {
      const next = q.peek((tenant, user) => counts.allows(limits, tenant, user));
      if (!next) break;
      q.take(next);
      if (next.seq === target.seq) return { position: t === 0 ? 0 : before + 1, startMs: Math.round(t) };
      counts.add(next.tenant, next.user, 1);
      run.push({ tenant: next.tenant, user: next.user, remainingMs: Math.max(1, durationOf(next.tenant)) });
      before++;
    }
    if (run.length === 0) break;
    const step = Math.max(0, Math.min(...run.map((r) => r.remainingMs)));
    t += step;
    for (let i = run.length - 1; i >= 0; i--) {
      const r = run[i]!;
      const left = r.remainingMs - step;
      if (left <= 0) run.splice(i, 1);
      else run[i] = { ...r, remainingMs: left };
    }
  }
  return { position: before + 1, startMs: Math.round(t) };
}
