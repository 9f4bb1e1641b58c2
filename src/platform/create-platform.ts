import { createAccessPort } from '../agent/index.js';
import { egressSettings, resolveDeepAdmission, type TwinlineConfig } from '../config/index.js';
import { openContextBus } from '../context/index.js';
import type { Identity } from '../core/index.js';
import { createInputGate, Egress } from '../gates/index.js';
import {
  createWriteFactStage,
  DeepLine,
  LineDispatcher,
  ModelPlanner,
  QuickLine,
  ReadonlyLine,
  RecentSummaries,
} from '../lines/index.js';
import { Pipeline } from '../pipeline/index.js';
import { DeepAdmission } from '../resilience/index.js';
import { endedReview, ReviewService } from '../review/index.js';
import { createConfiguredRouter } from '../router/index.js';
import { createRuntime } from '../runtime/index.js';
import { lineGateways } from './line-gateways.js';
import { lineModels, unavailableProvider } from './line-models.js';
import { observedAudit } from './log-lines.js';
import { type PlatformConfig, platformConfig } from './platform-config.js';
import type { LineName, Platform, PlatformOptions } from './platform-types.js';
import { processResilience } from './process-resilience.js';
import { requestDoor } from './request-door.js';
import { degradedDeepAnswer, observedRequestPath } from './request-observers.js';
import { ReviewWorkflow } from './review-workflow.js';
import { RoutingLog } from './routing-log.js';
import { TaskScheduler } from './task-scheduler.js';

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
  const registry = runtime.registry;
  const now = options.now ?? (() => new Date());

  let checked: PlatformConfig;
  try {
    checked = platformConfig(config, registry, options.wrapTool);
  } catch (err) {
    // A configuration that cannot mean what it says stops start-up; the store is closed first.
    await runtime.close();
    throw err;
  }
  const { reviewers, lineTools } = checked;
  const retrieval = config.lines.retrieval;

  const egress = new Egress(egressSettings(config, env));
  const { breakers, cache, limiter } = processResilience(options, now);

  const ownBus = !options.contextBus;
  const context = new RecentSummaries(options.contextBus ?? (await openContextBus({ env })), { now });

  const logger = options.logger;
  const audit = observedAudit(store.audit, options.onAudit, logger);
  // The serve profiles of the pipeline: the same layers `twinline check` explains, plus this
  // process's limits, breakers and the quick line's write facts.
  const telemetry = options.telemetry;
  const _tracer = telemetry?.tracer;
  const pipeline = new Pipeline({
    ...runtime.pipeline.layers,
    audit,
    rateLimiter: limiter,
    breakers,
    factStage: createWriteFactStage(),
    observer: telemetry?.gatewayObserver,
  });
  const lines = lineGateways(pipeline, checked.tools, breakers, cache);
  const { gateways, replays } = lines;
  const deepTools = lines.tools.deep;

  const resolveIdentity = (tenant: string, user: string): Identity | undefined =>
    runtime.identities.find(user, tenant);
  const deepPrompts = {
    ...(config.prompts?.planner ? { planner: config.prompts.planner } : {}),
    ...(config.prompts?.composer ? { composer: config.prompts.composer } : {}),
  };
  const newProvider = lineModels(config, env, {
    model: options.model,
    wrapProvider: options.wrapProvider,
    telemetry,
  });

  const readonly = new ReadonlyLine({
    gateway: gateways.readonly,
    ...(retrieval ? { searchTool: retrieval } : {}),
    createTicket: (t) => store.forTenant(t.tenant).tickets.create(t),
  });
  const deep = new DeepLine({
    tasksFor: (t) => store.forTenant(t).tasks,
    gateway: gateways.deep,
    tools: deepTools,
    allowlist: deepTools.names,
    // A planner per task run: a scripted model replays its script for each task.
    planner: () => new ModelPlanner(newProvider() ?? unavailableProvider(), now, deepPrompts),
    resolveIdentity,
    ...(options.taskLeaseMs ? { leaseMs: options.taskLeaseMs } : {}),
    now,
    context,
    reviewOutcome: async (tenant, reviewId) => {
      const item = await store.forTenant(tenant).reviews.get(reviewId);
      return item ? endedReview(item) : undefined;
    },
    degrade: degradedDeepAnswer(readonly, logger),
  });
  const admission = resolveDeepAdmission(config.lines.deepAdmission, options.deepConcurrency, config.file);
  const deepQueue = new DeepAdmission({
    limits: admission,
    maxQueuedPerTenant: admission.maxQueuedPerTenant,
    // Scaled out on PostgreSQL, the caps hold across every process, kept in the store like leases
    // (and lapsing like them when a process dies).
    ...(store.dialect === 'postgres' ? { slots: store.admission } : {}),
    ...(options.taskLeaseMs ? { slotTtlMs: options.taskLeaseMs } : {}),
  });
  const quick = new QuickLine({
    gateway: gateways.quick,
    catalog: lines.tools.quick,
    access: createAccessPort(),
    now,
    context,
    ...(config.prompts?.quick ? { systemPrompt: config.prompts.quick } : {}),
  });
  const inputGate = createInputGate(config.inputGate ?? {});
  const routing = new RoutingLog();
  const reviews = new ReviewService({
    reviews: store.reviews,
    gateway: {
      // A review is executed by the replay gateway of the line its call came from.
      executeApprovedReview: (review, replay) =>
        (replays[review.domain as LineName] ?? replays.deep).executeApprovedReview(review, replay),
    },
    resolveIdentity,
    ...(reviewers ? { reviewers } : {}),
    now,
  });

  const dispatcher: LineDispatcher = new LineDispatcher({
    ...observedRequestPath({ router, inputGate, routing, now, logger, telemetry }),
    deepPrompts,
    flagInput: (item) => workflow.flagInput(item),
    deep,
    deepQueue,
    quick,
    readonly,
    providerFor: () => newProvider(),
  });

  const scheduler = new TaskScheduler({
    deep,
    deepQueue,
    tasksFor: (t) => store.forTenant(t).tasks,
    allTasks: store.admin.tasks,
    onQueueWait: (seconds) => telemetry?.metrics?.queueWait('deep', seconds),
  });
  const workflow: ReviewWorkflow = new ReviewWorkflow({
    store,
    reviews,
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
      await workflow.expire().catch(() => {});
      return scheduler.resume();
    },
    runtime,
    store,
    gateways,
    dispatcher,
    deep,
    readonlyLine: readonly,
    reviews,
    breakers,
    routing,
    router,
    lineTools,
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
