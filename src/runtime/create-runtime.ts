import type { TwinlineConfig } from '../config/index.js';
import { type GatewayStage, type ResultStage, ToolGateway } from '../gateway/index.js';
import type { AuditRecord, AuditSink, Store } from '../store/index.js';
import type { ToolRegistry } from '../tools/index.js';
import { registerConfiguredTools } from './configured-tools.js';
import { IdentityDirectory } from './identity-directory.js';

export interface RuntimeOptions {
  /**
   * Open the store (audit and review queue). `false` builds a dry-run runtime for `check` and
   * `tools`: its gateway refuses `invoke` because nothing could be audited.
   */
  readonly store?: boolean;
  /** Use this already-open store instead of opening one from config (not closed by `close`). */
  readonly openedStore?: Store;
  /** Replace the default stage list (schema, rbac, review). */
  readonly stages?: readonly GatewayStage[];
  readonly resultStages?: readonly ResultStage[];
  /** Environment for `TWINLINE_DATABASE_URL` (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Everything a host needs to run tool calls for one configuration. */
export interface Runtime {
  readonly config: TwinlineConfig;
  readonly registry: ToolRegistry;
  readonly gateway: ToolGateway;
  readonly identities: IdentityDirectory;
  /** Absent in a dry-run runtime (`store: false`). */
  readonly store: Store | undefined;
  /** Flushes the audit and closes the store this runtime opened. */
  close(): Promise<void>;
}

/** The sink of a dry-run gateway, which never records (its `invoke` is refused). */
const NO_AUDIT: AuditSink = {
  record(_rec: AuditRecord): void {},
  flush: async () => {},
};

/**
 * Assembles a runtime from configuration: registers every tool at start-up (the first invalid
 * manifest aborts), opens the store, builds the gateway with the default stages, and resolves
 * identities by (tenant, user).
 */
export async function createRuntime(config: TwinlineConfig, options: RuntimeOptions = {}): Promise<Runtime> {
  const { registry, mcp } = await registerConfiguredTools(config);
  const identities = new IdentityDirectory(config.users);
  const env = options.env ?? process.env;
  let store = options.openedStore;
  const owned = store === undefined && options.store !== false;
  if (owned) {
    const url = env['TWINLINE_DATABASE_URL'] || config.store.url;
    // Loaded only here: dry-run runtimes (`check`, `tools`) never pay for Kysely and the drivers.
    const { openStore } = await import('../store/index.js');
    store = await openStore(
      url
        ? { url, env }
        : { ...(config.store.sqliteFile ? { sqliteFile: config.store.sqliteFile } : {}), env },
    );
  }
  const gateway = new ToolGateway({
    tools: registry,
    audit: store ? store.audit : NO_AUDIT,
    dryRunOnly: !store,
    ...(store ? { reviews: store.reviews } : {}),
    ...(options.stages ? { stages: options.stages } : {}),
    ...(options.resultStages ? { resultStages: options.resultStages } : {}),
    ...(config.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: config.approvalTimeoutMs } : {}),
  });
  return {
    config,
    registry,
    gateway,
    identities,
    store,
    async close() {
      await Promise.allSettled(mcp.map((c) => c.close()));
      if (owned) await store?.close();
      else await store?.audit.flush();
    },
  };
}
