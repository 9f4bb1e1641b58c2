import { configuredStore, type TwinlineConfig } from '../config/index.js';
import type { ToolGateway } from '../gateway/index.js';
import {
  loadConfigPolicy,
  Pipeline,
  PROFILES,
  type ProfileName,
  RegisteredNames,
} from '../pipeline/index.js';
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
  /**
   * The profile of `runtime.gateway` (default `library`); `agent-session` for a host that runs
   * an `AgentSession` over it (access state and approval mode come with each call).
   */
  readonly profile?: ProfileName;
  /** Environment for `TWINLINE_DATABASE_URL` (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Everything a host needs to run tool calls for one configuration. */
export interface Runtime {
  readonly config: TwinlineConfig;
  readonly registry: ToolRegistry;
  /**
   * A gateway over every registered tool, built by the pipeline for the runtime's profile: the
   * configuration's policy, parameter constraints, intent rules and field tags all apply.
   */
  readonly gateway: ToolGateway;
  /** The configuration's layers; the only place gateways for other doors are built. */
  readonly pipeline: Pipeline;
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
 * manifest aborts), opens the store, builds the gateway through the pipeline (the `library`
 * profile unless `profile` says otherwise), and resolves identities by (tenant, user).
 */
export async function createRuntime(config: TwinlineConfig, options: RuntimeOptions = {}): Promise<Runtime> {
  const { registry, mcp } = await registerConfiguredTools(config);
  const identities = new IdentityDirectory(config.users);
  const env = options.env ?? process.env;
  // Loaded (and type-checked against the tools) before the store opens: a policy that cannot
  // mean what it says stops start-up with nothing left open but the tools' MCP connections.
  let policy: ReturnType<typeof loadConfigPolicy>;
  try {
    policy = loadConfigPolicy(config, registry.list());
  } catch (err) {
    await Promise.allSettled(mcp.map((c) => c.close()));
    throw err;
  }
  let store = options.openedStore;
  const owned = store === undefined && options.store !== false;
  if (owned) {
    // Loaded only here: dry-run runtimes (`check`, `tools`) never pay for Kysely and the drivers.
    const { openStore } = await import('../store/index.js');
    // `TWINLINE_DATABASE_URL`, the file's `store`, else the data folder's twinline.sqlite
    store = await openStore({ ...configuredStore(config, env), env });
  }
  const pipeline = new Pipeline({
    policy,
    audit: store ? store.audit : NO_AUDIT,
    reviews: store?.reviews,
    approvalTimeoutMs: config.approvalTimeoutMs,
    auditDataLevel: config.audit?.dataLevel ?? 'L1',
  });
  const gateway = pipeline.gateway(
    PROFILES[options.profile ?? 'library'],
    { tools: registry, allow: new RegisteredNames(registry) },
    { dryRun: !store },
  );
  return {
    config,
    registry,
    gateway,
    pipeline,
    identities,
    store,
    async close() {
      await Promise.allSettled(mcp.map((c) => c.close()));
      if (owned) await store?.close();
      else await store?.audit.flush();
    },
  };
}
