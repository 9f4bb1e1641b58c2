import type { Identity } from '../core/index.js';
import type { Platform } from '../platform/index.js';
import type { CanaryService, ConfigVersionSnapshot } from '../rollout/index.js';

/** The platform that serves one identity, and the config version it runs. */
export interface VersionChoice {
  readonly platform: Platform;
  /** Config version name when canary roll-outs are in use. */
  readonly version?: string;
  readonly role?: 'stable' | 'canary';
}

/**
 * Sends each user to the config version the canary roll-out assigns them (stable hash of tenant
 * and user): one platform per version, all on the same store, created on first use. The roll-out
 * is re-read from the store every `refreshMs`, so `twinline canary start|promote|rollback` on any
 * process takes effect everywhere without a restart; a rollback sends every user back at once.
 */
export class VersionRouter {
  #snapshot: ConfigVersionSnapshot | undefined;
  readonly #platforms = new Map<string, Promise<Platform>>();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly base: Platform,
    private readonly canary: CanaryService,
    private readonly create: (configPath: string) => Promise<Platform>,
    private readonly refreshMs = 2_000,
  ) {}

  async start(): Promise<void> {
    await this.refresh();
    this.#timer = setInterval(() => void this.refresh(), this.refreshMs);
    this.#timer.unref();
  }

  /** Re-reads the roll-out; a store error keeps the last known assignment. */
  async refresh(): Promise<void> {
    try {
      this.#snapshot = await this.canary.snapshot();
    } catch {
      // keep serving with the previous snapshot
    }
  }

  async platformFor(identity: Identity): Promise<VersionChoice> {
    const v = this.#snapshot?.resolve(identity.tenant, identity.user);
    if (!v) return { platform: this.base };
    if (v.configPath === this.base.runtime.config.file)
      return { platform: this.base, version: v.version, role: v.role };
    let p = this.#platforms.get(v.configPath);
    if (!p) {
      p = this.create(v.configPath);
      this.#platforms.set(v.configPath, p);
      // A version whose config cannot load is forgotten, so the next request retries it.
      p.catch(() => this.#platforms.delete(v.configPath));
    }
    return { platform: await p, version: v.version, role: v.role };
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    const all = await Promise.allSettled([...this.#platforms.values()]);
    for (const r of all) if (r.status === 'fulfilled') await r.value.close();
  }
}
