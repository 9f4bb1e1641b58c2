import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createAccessPort } from '../agent/index.js';
import { egressSettings, resolveDeepAdmission, type TwinlineConfig } from '../config/index.js';
import { openContextBus } from '../context/index.js';
import type { Identity } from '../core/index.js';
import { createInputGate, Egress } from '../gates/index.js';
import {
  assertRetrievalTool,
  assertStrictQuickTools,
  createWriteFactStage,
  DeepLine,
  LineDispatcher,
  ModelPlanner,
  QuickLine,
  ReadonlyLine,
  RecentSummaries,
  resolveLineAllowlists,
} from '../lines/index.js';
import { configPolicySchema, Pipeline } from '../pipeline/index.js';
import { loadReviewerFile } from '../policy/index.js';
import { DeepAdmission } from '../resilience/index.js';
import { endedReview, ReviewService } from '../review/index.js';
import { createConfiguredRouter } from '../router/index.js';
import { createRuntime } from '../runtime/index.js';
import type { AuditRecord, AuditSink } from '../store/index.js';
import type { ToolSpec } from '../tools/index.js';
import { lineGateways } from './line-gateways.js';
import { lineModels, unavailableProvider } from './line-models.js';
import { decisionLogLine } from './log-lines.js';
import type { LineName, Platform, PlatformOptions } from './platform-types.js';
import { processResilience } from './process-resilience.js';
import { requestDoor, spanned } from './request-door.js';
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

  const reviewersFile = join(dirname(config.file), 'reviewers.yaml');
  let reviewers: ReturnType<typeof loadReviewerFile> | undefined;
  try {
    // Checked against the same schema as the policy files (which the runtime loaded).
    reviewers = existsSync(reviewersFile)
      ? loadReviewerFile(reviewersFile, configPolicySchema(config, registry.list()))
      : undefined;
  } catch (err) {
    // Reviewers that cannot load stop start-up; the store opened for them is closed first.
    await runtime.close();
    throw err;
  }

  const egress = new Egress(egressSettings(config, env));
  const { breakers, cache, limiter } = processResilience(options, now);

  const wrapTool = options.wrapTool ?? ((t: ToolSpec) => t);
  const allowed = (names: readonly string[]) =>
    names
      .map((n) => registry.get(n))
      .filter((t): t is ToolSpec => !!t)
      .map(wrapTool);
  let lineTools: { deep: string[]; quick: string[] };
  const retrieval = config.lines.retrieval;
  try {
    // Names, `mcp__<server>` and globs, expanded against what was registered (MCP tools too).
    lineTools = resolveLineAllowlists(
      config.lines,
      registry.list().map((t) => t.name),
      config.file,
    );
    assertStrictQuickTools(allowed(lineTools.quick), `${config.file}: lines.quick.allow`);
    if (retrieval)
      assertRetrievalTool(registry.get(retrieval), retrieval, `${config.file}: lines.readonly.retrieval`);
  } catch (err) {
    await runtime.close();
    throw err;
  }
  const ownBus = !options.contextBus;
  const context = new RecentSummaries(options.contextBus ?? (await openContextBus({ env })), { now });

  const logger = options.logger;
  const onAudit =
    options.onAudit || logger
      ? (rec: AuditRecord) => {
          options.onAudit?.(rec);
          if (logger?.isLevelEnabled('debug')) logger.debug(decisionLogLine(rec), 'decision');
        }
      : undefined;
  const audit: AuditSink = onAudit
    ? {
        record: (rec) => {
          onAudit(rec);
          store.audit.record(rec);
        },
        flush: () => store.audit.flush(),
      }
    : store.audit;
  // The serve profiles of the pipeline: the same layers `twinline check` explains, plus this
  // process's limits, breakers and the quick line's write facts.
  const telemetry = options.telemetry;
  const tracer = telemetry?.tracer;
  const pipeline = new Pipeline({
    ...runtime.pipeline.layers,
    audit,
    rateLimiter: limiter,
    breakers,
    factStage: createWriteFactStage(),
    observer: telemetry?.gatewayObserver,
  });
  const lines = lineGateways(
    pipeline,
    {
      deep: allowed(lineTools.deep),
      quick: allowed(lineTools.quick),
      readonly: allowed(retrieval ? [retrieval] : []),
    },
    breakers,
    cache,
  );
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
    // A plan the model service could not give: the read-only line's answer and a ticket.
    degrade: (identity, request, failure) => {
      logger?.warn(
        {
          tenant: identity.tenant,
          user: identity.user,
          line: 'deep',
          reason: failure.reason,
          detail: failure.detail,
        },
        'model service failed; answered on the degraded path',
      );
      return readonly.answer(identity, request, {
        sessionId: failure.sessionId,
        degradedReason: failure.reason,
        ...(failure.detail ? { degradedDetail: failure.detail } : {}),
      });
    },
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

  const inSpan = spanned(tracer);

  const dispatcher: LineDispatcher = new LineDispatcher({
    route: (q) =>
      inSpan(
        'twinline.route',
        () => router.route(q),
        (d) => ({ 'twinline.route.target': d.target, 'twinline.rule_id': d.rule ?? 'classifier' }),
      ),
    deepPrompts,
    onModelFailure: ({ identity, requestId, line, failure }) =>
      logger?.warn(
        {
          requestId,
          tenant: identity.tenant,
          user: identity.user,
          line,
          failure: failure.failure,
          reason: failure.message,
          ...(failure.detail ? { detail: failure.detail } : {}),
        },
        'model service failed; answered on the degraded path',
      ),
    scanInput: (text) => {
      const { scan } = inSpan(
        'twinline.input_gate',
        () => inputGate.check(text, 'user_input'),
        ({ scan: s }) => ({
          'twinline.decision': s.verdict === 'pass' ? 'allow' : s.verdict === 'block' ? 'deny' : 'review',
          'twinline.rule_id': `input.${s.verdict}`,
          'twinline.input.score': s.score,
        }),
      );
      telemetry?.metrics?.inputGate(scan.verdict);
      return scan;
    },
    flagInput: (item) => workflow.flagInput(item),
    tracer,
    onQueueWait: (line, seconds) => telemetry?.metrics?.queueWait(line, seconds),
    deep,
    deepQueue,
    quick,
    readonly,
    providerFor: () => newProvider(),
    onRouted: ({ identity, query, decision }) =>
      routing.add({
        time: now().toISOString(),
        tenant: identity.tenant,
        user: identity.user,
        query: query.slice(0, 200),
        target: decision.target,
        scores: decision.scores,
        rule: decision.rule,
        ...(decision.routing ? { routing: decision.routing } : {}),
      }),
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
    sweepReviews: () => workflow.sweep(),
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
