import { configSource, configuredStore, loadConfig } from '../config/index.js';
import { ConfigError, importExternal, packageVersion } from '../core/index.js';
import { createPlatform, type Platform, type PlatformOptions } from '../platform/index.js';
import type { AuditRecord } from '../store/index.js';
import { createLogger, type Tracing, type TwinlineLogger } from '../telemetry/index.js';
import { buildMetricsServer, buildServer } from './app.js';
import { loadAuthFile } from './auth-file.js';
import { ServerMetrics } from './metrics.js';
import { VersionRouter } from './version-router.js';

export interface ServeOptions {
  readonly port?: number;
  readonly host?: string;
  /** The config file (default: `TWINLINE_CONFIG`, else ./twinline.config.yaml, else the office sample). */
  readonly config?: string;
  /** The data folder (default: `TWINLINE_HOME`, else `dataDir` of the config, else beside it). */
  readonly dataDir?: string;
  readonly model?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where the ready line goes (default stdout). */
  readonly log?: (line: string) => void;
  /** Platform settings beyond the environment's (tests and benchmarks: breakers, an injected backend delay). */
  readonly platform?: Pick<PlatformOptions, 'breakers' | 'wrapTool'>;
  /** Structured logs (default: pino on stderr at `TWINLINE_LOG_LEVEL`, else `info`). */
  readonly logger?: TwinlineLogger;
  /**
   * How long `close()` lets in-flight requests finish before cancelling their model calls
   * (default `TWINLINE_SHUTDOWN_GRACE_MS`, else 10 s).
   */
  readonly shutdownGraceMs?: number;
  /**
   * Tracing to use instead of the one the `OTEL_*` variables configure (tests: an in-memory
   * exporter). The server shuts it down when it closes.
   */
  readonly tracing?: Tracing;
}

export interface RunningServer {
  readonly url: string;
  /** The metrics listener's URL, when one is configured. */
  readonly metricsUrl?: string;
  readonly platform: Platform;
  /** Stops accepting, drains in-flight requests, stops workers, closes the store. */
  close(): Promise<void>;
}

/** `TWINLINE_SHUTDOWN_GRACE_MS` (default 10 s); a value that is not a count of ms is an error naming it. */
function shutdownGrace(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env.TWINLINE_SHUTDOWN_GRACE_MS;
  if (raw === undefined || raw === '') return 10_000;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 600_000) {
    throw new ConfigError(
      'config.shutdown_grace',
      `must be an integer 0-600000, got ${JSON.stringify(raw)}`,
      {
        where: 'TWINLINE_SHUTDOWN_GRACE_MS',
      },
    );
  }
  return n;
}

/**
 * `twinline serve`: the gateway for a team. Embedded defaults (SQLite, in-process queues); the
 * same code on PostgreSQL (`TWINLINE_DATABASE_URL`), Redis (`TWINLINE_REDIS_URL`: rate limits
 * shared across processes) when one machine is not enough.
 */
export async function startServer(options: ServeOptions = {}): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((l: string) => process.stdout.write(`${l}\n`));
  const source = configSource(options.config, env);
  const config = loadConfig(source.file, { env, ...(options.dataDir ? { dataDir: options.dataDir } : {}) });
  const logger = options.logger ?? (await createLogger({ env }));
  const graceMs = options.shutdownGraceMs ?? shutdownGrace(env);
  const auth = loadAuthFile(config.file, env);
  let redis: import('ioredis').Redis | undefined;
  if (env.TWINLINE_REDIS_URL) {
    const { Redis } = await importExternal<typeof import('ioredis')>('ioredis');
    redis = new Redis(env.TWINLINE_REDIS_URL, {
      maxRetriesPerRequest: 2,
      enableOfflineQueue: false,
      lazyConnect: true,
    });
    await redis.connect();
  }
  // The metrics exist before the platform (its gateways report to them); their gauges read it after.
  let current: Platform | undefined;
  const metrics = new ServerMetrics(() => current);
  const { Telemetry, tracingFromEnv } = await import('../telemetry/index.js');
  // Off unless the OTEL_* variables turn it on; the SDK is loaded only then.
  const tracing = options.tracing ?? (await tracingFromEnv(env, { version: packageVersion() }));
  const telemetry = new Telemetry({ tracer: tracing?.tracer, metrics });
  const platformOptions = {
    ...options.platform,
    env,
    ...(options.model ? { model: options.model } : {}),
    ...(redis ? { redis, redisPrefix: env.TWINLINE_REDIS_PREFIX || 'twinline' } : {}),
    ...(env.TWINLINE_TASK_LEASE_MS ? { taskLeaseMs: Number(env.TWINLINE_TASK_LEASE_MS) } : {}),
    ...(env.TWINLINE_QUICK_QPS ? { quickQps: Number(env.TWINLINE_QUICK_QPS) } : {}),
    ...(env.TWINLINE_QUICK_WINDOW_S ? { quickWindowSeconds: Number(env.TWINLINE_QUICK_WINDOW_S) } : {}),
    ...(env.TWINLINE_DEEP_CONCURRENCY ? { deepConcurrency: Number(env.TWINLINE_DEEP_CONCURRENCY) } : {}),
    onAudit: (rec: AuditRecord) =>
      metrics.calls.inc({
        // A name no tool has is the model's text: one label for all of them, not one each.
        tool: rec.decisionPath.at(-1)?.ruleId === 'tool.unavailable' ? '(unavailable)' : rec.tool,
        status: rec.status,
        domain: rec.domain,
      }),
    logger,
    telemetry,
  };
  const platform = await createPlatform(config, platformOptions);
  current = platform;
  // On SQLite, WAL checkpoints would otherwise stall a request every ~1,000 pages of audit.
  await platform.store.checkpointInBackground().catch((err: unknown) => {
    log(
      `  Warning: SQLite checkpoints stay on the main thread (${err instanceof Error ? err.message : String(err)})`,
    );
  });
  // Canary roll-outs (`twinline canary …`) pick each user's config version; all share the store.
  const { CanaryService } = await import('../rollout/index.js');
  const versions = new VersionRouter(
    platform,
    new CanaryService(platform.store),
    (configPath) =>
      createPlatform(loadConfig(configPath, { env, dataDir: config.dataDir }), {
        ...platformOptions,
        openedStore: platform.store,
      }),
    Number(env.TWINLINE_CANARY_REFRESH_MS || 2_000),
  );
  await versions.start();
  // Cancels the model calls of requests still running when the shutdown grace is over.
  const shutdown = new AbortController();
  const app = buildServer({
    logger,
    shutdownSignal: shutdown.signal,
    platform,
    tracer: tracing?.tracer,
    auth: auth.settings,
    reviewerRoles: auth.reviewerRoles,
    adminRoles: auth.adminRoles,
    auditorRoles: auth.auditorRoles,
    metrics,
    metricsKeys: auth.metricsKeys,
    version: packageVersion(),
    platformFor: (identity) => versions.platformFor(identity),
  });
  const host = options.host ?? '127.0.0.1';
  const address = await app.listen({ port: options.port ?? 7420, host });
  const url = address.replace('[::1]', 'localhost');
  // `/metrics` without credentials, only on the operator's own address (auth.yaml `metrics.listen`).
  let metricsApp: ReturnType<typeof buildMetricsServer> | undefined;
  let metricsUrl: string | undefined;
  if (auth.metricsListen) {
    const at = auth.metricsListen.lastIndexOf(':');
    metricsApp = buildMetricsServer(metrics);
    try {
      metricsUrl = await metricsApp.listen({
        host: auth.metricsListen.slice(0, at).replace(/^\[|\]$/g, ''),
        port: Number(auth.metricsListen.slice(at + 1)),
      });
    } catch (err) {
      await app.close();
      await versions.close();
      await platform.close();
      redis?.disconnect();
      throw err;
    }
  }

  // Tasks a stopped process left behind, and reviews that expired or a rule can decide.
  const resumed = await platform.resumeTasks();
  const sweepMs = Number(env.TWINLINE_SWEEP_MS || 5_000);
  const sweep = setInterval(() => {
    void platform.sweep().catch(() => {});
  }, sweepMs);
  sweep.unref();

  const store = configuredStore(config, env);
  log(`Twinline ${packageVersion()} serving ${config.domain} on ${platform.store.dialect}`);
  log(`  Config:  ${config.file} (${source.via})`);
  log(`  Data:    ${config.dataDir}${'sqliteFile' in store ? ` (store ${store.sqliteFile})` : ''}`);
  log(`  API:     ${url}/v1  (OpenAPI: ${url}/openapi.json)`);
  log(`  Console: ${url}/console/`);
  if (metricsUrl) log(`  Metrics: ${metricsUrl}/metrics`);
  if (platform.router.notice) log(`  Notice:  ${platform.router.notice}`);
  logger.info(
    {
      domain: config.domain,
      url,
      config: config.file,
      dataDir: config.dataDir,
      store: platform.store.dialect,
      routing: platform.router.mode,
    },
    'serving',
  );
  if (resumed > 0) log(`  Resumed ${resumed} unfinished task(s).`);
  if (!auth.file) log('  Warning: no auth.yaml beside the config: every API call will be refused.');

  let closing: Promise<void> | undefined;
  return {
    url,
    ...(metricsUrl ? { metricsUrl } : {}),
    platform,
    close() {
      closing ??= (async () => {
        clearInterval(sweep);
        await metricsApp?.close();
        logger.info({ graceMs }, 'shutting down: draining in-flight requests');
        // A keep-alive socket that goes idle after its in-flight response would hold close() open
        // for the whole keep-alive timeout (72 s in Fastify); close such sockets as they go idle.
        const drained = app.close();
        const idle = setInterval(() => app.server.closeIdleConnections(), 50);
        // Requests still waiting on a model when the grace is over are cancelled (they answer
        // "interrupted"), so a hung model service cannot hold the process up.
        const grace = setTimeout(() => shutdown.abort('shutting down'), graceMs);
        try {
          await drained;
        } finally {
          clearInterval(idle);
          clearTimeout(grace);
        }
        await platform.deepQueue.onIdle().catch(() => {});
        await versions.close();
        await platform.close();
        await tracing?.shutdown().catch(() => {});
        redis?.disconnect();
        logger.info('stopped');
        logger.flush?.();
      })();
      return closing;
    },
  };
}
