import { egressSettings, type TwinlineConfig } from '../config/index.js';
import { openContextBus } from '../context/index.js';
import type { Identity } from '../core/index.js';
import { createInputGate, Egress } from '../gates/index.js';
import { LineDispatcher, RecentSummaries } from '../lines/index.js';
import { createConfiguredRouter } from '../router/index.js';
import { createRuntime } from '../runtime/index.js';
import { lineGateways, servePipeline } from './line-gateways.js';
import { lineModels } from './line-models.js';
import { observedAudit } from './log-lines.js';
import { type PlatformConfig, platformConfig } from './platform-config.js';
import { platformLines } from './platform-lines.js';
import type { Platform, PlatformOptions } from './platform-types.js';
import { processResilience } from './process-resilience.js';
import { requestDoor } from './request-door.js';
import { observedRequestPath } from './request-observers.js';
import { reviewPath } from './review-path.js';
import type { ReviewWorkflow } from './review-workflow.js';
import { RoutingLog } from './routing-log.js';

/**
 * Assembles the platform from a configuration. The three lines are separate trust chains: each
 * has its own gateway over its own allowlist (the quick line's tools answer from the read cache
 * and count against a per-user rate limit), all share policy, parameters, intent, review,
 * breakers, redaction, quoting and the audit.
 */
export async function createPlatform(
  config: TwinlineConfig,
  options: PlatformOptions = {},
): Promise<Platform> {
  const env = options.env ?? process.env;
  // The router is built before anything opens: a weights file that is named but missing stops here.
  const router = createConfiguredRouter(config.router, `${config.file}: router`);
  const runtime = await createRuntime(config, {
    ...(options.openedStore ? { openedStore: options.openedStore } : {}),
    env,
  });
  const store = runtime.store!;
  const now = options.now ?? (() => new Date());

  let checked: PlatformConfig;
  try {
    checked = platformConfig(config, runtime.registry, options.wrapTool);
  } catch (err) {
    // A configuration that cannot mean what it says stops start-up; the store is closed first.
    await runtime.close();
    throw err;
  }

  const egress = new Egress(egressSettings(config, env));
  const { breakers, cache, limiter } = processResilience(options, now);
  const ownBus = !options.contextBus;
  const context = new RecentSummaries(options.contextBus ?? (await openContextBus({ env })), { now });
  const { logger, telemetry } = options;
  const audit = observedAudit(store.audit, options.onAudit, logger);
  const pipeline = servePipeline(runtime.pipeline.layers, {
    audit,
    rateLimiter: limiter,
    breakers,
    observer: telemetry?.gatewayObserver,
  });
  const lines = lineGateways(pipeline, checked.tools, breakers, cache);
  const resolveIdentity = (tenant: string, user: string): Identity | undefined =>
    runtime.identities.find(user, tenant);
  const newProvider = lineModels(config, env, {
    model: options.model,
    wrapProvider: options.wrapProvider,
    telemetry,
  });
  const { readonly, deep, quick, deepQueue, scheduler, deepPrompts } = platformLines({
    config,
    options,
    store,
    lines,
    newProvider,
    resolveIdentity,
    context,
    logger,
    telemetry,
    now,
  });
  const routing = new RoutingLog();
  const dispatcher: LineDispatcher = new LineDispatcher({
    ...observedRequestPath({
      router,
      inputGate: createInputGate(config.inputGate ?? {}),
      routing,
      now,
      logger,
      telemetry,
    }),
    deepPrompts,
    flagInput: (item) => workflow.flagInput(item),
    deep,
    deepQueue,
    quick,
    readonly,
    providerFor: () => newProvider(),
  });
  const { reviews, workflow }: { reviews: Platform['reviews']; workflow: ReviewWorkflow } = reviewPath({
    store,
    lines,
    reviewers: checked.reviewers,
    scheduler,
    egress,
    audit,
    auditArguments: pipeline.auditArguments,
    resolveIdentity,
    runCleared: (author, query, sessionId) =>
      dispatcher.handle(author, query, { sessionId, inputReviewed: true }),
    now,
  });

  return {
    approveReview: (reviewer, id, note) => workflow.approve(reviewer, id, note),
    denyReview: (reviewer, id, note) => workflow.deny(reviewer, id, note),
    async sweep() {
      // In this order: a review a rule decides (or that expires) in this sweep wakes its task in it.
      const swept = await workflow.sweep().catch(() => undefined);
      const resumed = swept?.executed.filter((e) => e.resumedTask).length ?? 0;
      return resumed + (await scheduler.resume());
    },
    runtime,
    store,
    gateways: lines.gateways,
    dispatcher,
    deep,
    readonlyLine: readonly,
    reviews,
    breakers,
    routing,
    router,
    lineTools: checked.lineTools,
    cache,
    deepQueue,
    context,
    egress,
    handle: requestDoor({ dispatcher, egress, logger, telemetry }),
    cancelTask: (tenant, taskId) => scheduler.cancel(tenant, taskId),
    resumeTasks: () => scheduler.resume(),
    async close() {
      scheduler.close();
      deepQueue.close();
      breakers.shutdown();
      context.close();
      if (ownBus) await context.bus.close();
      await runtime.close();
    },
  };
}
