import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { Kysely } from 'kysely';
import type { Store } from '../store/index.js';
import { inCanary, percentToBasisPoints } from './assignment.js';
import type { CanaryDatabase, ConfigRolloutsTable } from './canary-tables.js';
import { hashConfigVersion } from './config-hash.js';
import { CanaryError } from './errors.js';
import {
  DEFAULT_ROLLBACK_POLICY,
  decideRollback,
  type RollbackPolicy,
  type VersionMetrics,
} from './rollback-decision.js';

/** A registered config version. */
export interface ConfigVersion {
  readonly version: string;
  readonly label: string;
  readonly configPath: string;
  readonly configHash: string;
  readonly createdAt: string;
}

/** The config version a user is served, and why. */
export interface ResolvedConfigVersion extends ConfigVersion {
  readonly role: 'stable' | 'canary';
}

export interface Rollout {
  readonly id: string;
  readonly stableVersion: string | null;
  readonly canaryVersion: string;
  /** Share of users on the canary, in percent. */
  readonly percent: number;
  readonly status: 'running' | 'promoted' | 'rolled_back';
  readonly reason: string | null;
  readonly startedAt: string;
  readonly endedAt: string | null;
}

/** An assignment read at one moment; `resolve` is pure. */
export interface ConfigVersionSnapshot {
  readonly stable: ConfigVersion | undefined;
  readonly canary: ConfigVersion | undefined;
  readonly percent: number;
  resolve(tenant: string, user: string): ResolvedConfigVersion | undefined;
}

export interface CanaryStatus {
  readonly stable: ConfigVersion | undefined;
  readonly rollout: Rollout | undefined;
  /** Canary metrics count only since its roll-out started. */
  readonly metrics: { readonly stable?: VersionMetrics; readonly canary?: VersionMetrics };
  readonly history: readonly Rollout[];
}

/**
 * Versioned configuration with canary roll-outs, kept in the store (SQLite or PostgreSQL). The
 * stable version is the last promoted canary; a running roll-out sends a stable-hashed share of
 * users to its version; metrics recorded per version drive automatic rollback.
 */
export class CanaryService {
  private readonly db: Kysely<CanaryDatabase>;

  constructor(
    store: Store,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.db = store.db as unknown as Kysely<CanaryDatabase>;
  }

  /** Registers `version` (config path + content hash); re-registering the same content is a no-op. */
  async registerVersion(version: string, configPath: string, label = version): Promise<ConfigVersion> {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(version)) {
      throw new CanaryError(
        'canary.bad-version',
        `version "${version}" must be letters, digits, ".", "_" or "-"`,
        {
          where: 'canary',
        },
      );
    }
    const path = resolve(configPath);
    const hash = hashConfigVersion(path);
    const existing = await this.getVersion(version);
    if (existing) {
      if (existing.configHash !== hash) {
        throw new CanaryError(
          'canary.version-changed',
          `version ${version} is already registered with different content (${existing.configHash.slice(0, 12)}…); use a new version name`,
          { where: path },
        );
      }
      return existing;
    }
    const row = {
      version,
      label,
      config_path: path,
      config_hash: hash,
      created_at: this.now().toISOString(),
    };
    await this.db.insertInto('config_versions').values(row).execute();
    return toVersion(row);
  }

  async getVersion(version: string): Promise<ConfigVersion | undefined> {
    const row = await this.db
      .selectFrom('config_versions')
      .selectAll()
      .where('version', '=', version)
      .executeTakeFirst();
    return row ? toVersion(row) : undefined;
  }

  /** Starts rolling `version` out to `percent` of users. Only one roll-out runs at a time. */
  async start(input: { version: string; config: string; percent: number; label?: string }): Promise<Rollout> {
    if (!(input.percent > 0 && input.percent <= 100)) {
      throw new CanaryError('canary.bad-percent', `--percent must be in (0, 100], got ${input.percent}`, {
        where: 'canary start',
      });
    }
    const running = await this.running();
    if (running) {
      throw new CanaryError(
        'canary.already-running',
        `roll-out of ${running.canaryVersion} is running; promote or roll it back first`,
        { where: 'canary start' },
      );
    }
    const stable = await this.stableVersion();
    if (stable === input.version) {
      throw new CanaryError('canary.already-stable', `${input.version} is already the stable version`, {
        where: 'canary start',
      });
    }
    await this.registerVersion(input.version, input.config, input.label);
    const row: ConfigRolloutsTable = {
      id: randomUUID(),
      stable_version: stable ?? null,
      canary_version: input.version,
      basis_points: percentToBasisPoints(input.percent),
      status: 'running',
      reason: null,
      started_at: this.now().toISOString(),
      ended_at: null,
    };
    await this.db.insertInto('config_rollouts').values(row).execute();
    return toRollout(row);
  }

  /** Makes the running canary the stable version for everyone. */
  promote(reason = 'promoted'): Promise<Rollout> {
    return this.finish('promoted', reason);
  }

  /**
   * Ends the running canary: every user is served the stable version again. With no roll-out
   * running, withdraws the last promotion instead, so the version promoted before it is stable.
   */
  async rollback(reason = 'rolled back by an operator'): Promise<Rollout> {
    if (await this.running()) return this.finish('rolled_back', reason);
    const last = await this.db
      .selectFrom('config_rollouts')
      .selectAll()
      .where('status', '=', 'promoted')
      .orderBy('ended_at', 'desc')
      .executeTakeFirst();
    if (!last)
      throw new CanaryError(
        'canary.nothing-to-roll-back',
        'no roll-out is running and nothing was promoted',
        { where: 'canary rollback' },
      );
    const endedAt = this.now().toISOString();
    await this.db
      .updateTable('config_rollouts')
      .set({ status: 'rolled_back', reason: `promotion withdrawn: ${reason}` })
      .where('id', '=', last.id)
      .execute();
    return { ...toRollout(last), status: 'rolled_back', reason, endedAt };
  }

  /** Records measured outcomes of a version (an eval run, or a window of live audit). */
  async recordMetrics(version: string, m: VersionMetrics, source: 'eval' | 'audit' = 'eval'): Promise<void> {
    await this.db
      .insertInto('config_version_metrics')
      .values({
        id: randomUUID(),
        version,
        source,
        recorded_at: this.now().toISOString(),
        total: m.total,
        passed: m.passed,
        misuse: m.misuse,
      })
      .execute();
  }

  /** Rolls the running canary back when its metrics break the policy; returns what was decided. */
  async checkAutoRollback(
    policy: RollbackPolicy = DEFAULT_ROLLBACK_POLICY,
  ): Promise<{ rolledBack: boolean; reason: string; rollout?: Rollout }> {
    const rollout = await this.running();
    if (!rollout) return { rolledBack: false, reason: 'no roll-out is running' };
    const canary = await this.metricsOf(rollout.canaryVersion, rollout.startedAt);
    const stable = rollout.stableVersion ? await this.metricsOf(rollout.stableVersion) : undefined;
    const decision = decideRollback(canary, stable && stable.total > 0 ? stable : undefined, policy);
    if (!decision.rollback) return { rolledBack: false, reason: decision.reason, rollout };
    const ended = await this.finish('rolled_back', `automatic: ${decision.reason}`);
    return { rolledBack: true, reason: decision.reason, rollout: ended };
  }

  async status(): Promise<CanaryStatus> {
    const rollout = await this.running();
    const stableName = await this.stableVersion();
    const stable = stableName ? await this.getVersion(stableName) : undefined;
    const history = (
      await this.db
        .selectFrom('config_rollouts')
        .selectAll()
        .orderBy('started_at', 'desc')
        .limit(10)
        .execute()
    ).map(toRollout);
    const metrics: { stable?: VersionMetrics; canary?: VersionMetrics } = {};
    if (stableName) metrics.stable = await this.metricsOf(stableName);
    if (rollout) metrics.canary = await this.metricsOf(rollout.canaryVersion, rollout.startedAt);
    return { stable, rollout, metrics, history };
  }

  /**
   * The config version to serve `tenant`/`user`: the canary when a roll-out is running and the
   * user's stable bucket falls in its share, else the stable version; undefined when no version
   * was ever promoted and the user is not in a canary (serve its own configuration).
   */
  async resolveConfigVersion(tenant: string, user: string): Promise<ResolvedConfigVersion | undefined> {
    const rollout = await this.running();
    if (rollout && inCanary(tenant, user, percentToBasisPoints(rollout.percent))) {
      const v = await this.getVersion(rollout.canaryVersion);
      if (v) return { ...v, role: 'canary' };
    }
    const stableName = rollout ? rollout.stableVersion : await this.stableVersion();
    if (!stableName) return undefined;
    const v = await this.getVersion(stableName);
    return v ? { ...v, role: 'stable' } : undefined;
  }

  /**
   * The current assignment, read once: resolves any number of users without further queries
   * (a server can hold one for a few seconds instead of asking the store per request).
   */
  async snapshot(): Promise<ConfigVersionSnapshot> {
    const rollout = await this.running();
    const stableName = rollout ? rollout.stableVersion : await this.stableVersion();
    const stable = stableName ? await this.getVersion(stableName) : undefined;
    const canary = rollout ? await this.getVersion(rollout.canaryVersion) : undefined;
    const basisPoints = rollout ? percentToBasisPoints(rollout.percent) : 0;
    return {
      stable,
      canary,
      percent: rollout?.percent ?? 0,
      resolve(tenant, user) {
        if (canary && inCanary(tenant, user, basisPoints)) return { ...canary, role: 'canary' };
        return stable ? { ...stable, role: 'stable' } : undefined;
      },
    };
  }

  /** The running roll-out, if any. */
  async running(): Promise<Rollout | undefined> {
    const row = await this.db
      .selectFrom('config_rollouts')
      .selectAll()
      .where('status', '=', 'running')
      .orderBy('started_at', 'desc')
      .executeTakeFirst();
    return row ? toRollout(row) : undefined;
  }

  /** The last promoted version. */
  async stableVersion(): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('config_rollouts')
      .select('canary_version')
      .where('status', '=', 'promoted')
      .orderBy('ended_at', 'desc')
      .executeTakeFirst();
    return row?.canary_version;
  }

  private async metricsOf(version: string, since?: string): Promise<VersionMetrics> {
    let q = this.db
      .selectFrom('config_version_metrics')
      .select(['total', 'passed', 'misuse'])
      .where('version', '=', version);
    if (since) q = q.where('recorded_at', '>=', since);
    const rows = await q.execute();
    return rows.reduce(
      (acc, r) => ({
        total: acc.total + Number(r.total),
        passed: acc.passed + Number(r.passed),
        misuse: acc.misuse + Number(r.misuse),
      }),
      { total: 0, passed: 0, misuse: 0 },
    );
  }

  private async finish(status: 'promoted' | 'rolled_back', reason: string): Promise<Rollout> {
    const rollout = await this.running();
    if (!rollout) {
      throw new CanaryError('canary.none-running', 'no roll-out is running', {
        where: status === 'promoted' ? 'canary promote' : 'canary rollback',
      });
    }
    const endedAt = this.now().toISOString();
    const result = await this.db
      .updateTable('config_rollouts')
      .set({ status, reason, ended_at: endedAt })
      .where('id', '=', rollout.id)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) {
      throw new CanaryError('canary.raced', 'the roll-out was ended by someone else', { where: 'canary' });
    }
    return { ...rollout, status, reason, endedAt };
  }
}

function toVersion(row: {
  version: string;
  label: string;
  config_path: string;
  config_hash: string;
  created_at: string;
}): ConfigVersion {
  return {
    version: row.version,
    label: row.label,
    configPath: row.config_path,
    configHash: row.config_hash,
    createdAt: row.created_at,
  };
}

function toRollout(row: ConfigRolloutsTable): Rollout {
  return {
    id: row.id,
    stableVersion: row.stable_version,
    canaryVersion: row.canary_version,
    percent: Number(row.basis_points) / 100,
    status: row.status as Rollout['status'],
    reason: row.reason,
    startedAt: row.started_at,
    endedAt: row.ended_at,
  };
}

/**
 * The config version `serve` should use for one user (see {@link CanaryService.resolveConfigVersion});
 * undefined → the process's own configuration.
 */
export function resolveConfigVersion(
  store: Store,
  tenant: string,
  user: string,
): Promise<ResolvedConfigVersion | undefined> {
  return new CanaryService(store).resolveConfigVersion(tenant, user);
}
