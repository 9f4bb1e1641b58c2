import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createAccessPort, type ModelProvider, NoProviderError } from '../agent/index.js';
import { egressSettings, resolveDeepAdmission, type TwinlineConfig } from '../config/index.js';
import { type ContextBus, openContextBus } from '../context/index.js';
import {
  decide,
  hashCanonical,
  type Identity,
  runInSpan,
  type StageDecision,
  uuidV7,
} from '../core/index.js';
import { createInputGate, Egress, type EgressGate } from '../gates/index.js';
import type { ToolGateway } from '../gateway/index.js';
import {
  assertRetrievalTool,
  assertStrictQuickTools,
  createWriteFactStage,
  DeepLine,
  type GatedLineEvent,
  type GatedRequestResult,
  gateRequestResult,
  LineDispatcher,
  LineEventEgress,
  MemoryCacheBackend,
  ModelPlanner,
  QuickLine,
  QuickResultCache,
  ReadonlyLine,
  RecentSummaries,
  RedisCacheBackend,
  type RequestOptions,
  type RequestResult,
  resolveLineAllowlists,
  withQuickCache,
} from '../lines/index.js';
import {
  configPolicySchema,
  type GatewaySite,
  Pipeline,
  PROFILES,
  reviewReplayProfile,
} from '../pipeline/index.js';
import { loadReviewerFile } from '../policy/index.js';
import {
  type BreakerOptions,
  DeepAdmission,
  SharedBreakerState,
  ToolBreakers,
  UserRateLimiter,
} from '../resilience/index.js';
import { endedReview, ReviewService } from '../review/index.js';
import { type ConfiguredRouter, createConfiguredRouter } from '../router/index.js';
import { createRuntime, type Runtime } from '../runtime/index.js';
import { type AuditRecord, type AuditSink, INPUT_REVIEW_NAME, type Store } from '../store/index.js';
import type { Telemetry, TwinlineLogger } from '../telemetry/index.js';
import type { ToolSpec } from '../tools/index.js';
import { LineToolCatalog, withBreaker } from './line-tools.js';
import { providerSource } from './provider-source.js';
import { RoutingLog } from './routing-log.js';

export interface PlatformOptions {
  /** Model for the lines (`scripted:PATH`, `openai:MODEL`, …); default `TWINLINE_MODEL`; none → degraded. */
  readonly model?: string;
  readonly openedStore?: Store;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Quick-line calls per window per user (default 10). */
  readonly quickQps?: number;
  /** Length of the quick-line rate window in seconds (default 1: a QPS limit). */
  readonly quickWindowSeconds?: number;
  /** Deep tasks running at once (overrides `lines.deep.admission.concurrency`; default 4). */
  readonly deepConcurrency?: number;
  /** A shared Redis (`ioredis`) for rate limits and the read cache across processes. */
  readonly redis?: import('ioredis').Redis;
  /** Prefix of this deployment's Redis keys (default `twinline`), so deployments can share a Redis. */
  readonly redisPrefix?: string;
  readonly now?: () => Date;
  readonly taskLeaseMs?: number;
  /** Sees every audit record the line gateways write (metrics). */
  readonly onAudit?: (rec: AuditRecord) => void;
  /** The context bus (default: `openContextBus` — NATS when `TWINLINE_NATS_URL`, else in-process). */
  readonly contextBus?: ContextBus;
  /** Per-tool circuit breaker settings (default: the seed's 30% of 20 calls, 10 s before half-open). */
  readonly breakers?: BreakerOptions;
  /** Wraps every registry tool before the lines see it (benchmarks: an injected backend delay). */
  readonly wrapTool?: (tool: ToolSpec) => ToolSpec;
  /** Wraps every model provider the lines get (eval: counts the turns a scripted model is asked for). */
  readonly wrapProvider?: (provider: ModelProvider) => ModelProvider;
  /**
   * Structured logs (`src/telemetry`): one line per request (id, tenant, route, outcome,
   * latency), one per gateway decision at `debug`, model-service failures at `warn` with what
   * the service said. Never arguments, request text or answers. Default: no logging.
   */
  readonly logger?: TwinlineLogger;
  /** Traces and metrics of the request path (docs/operations.md); absent: none, at no cost. */
  readonly telemetry?: Telemetry;
}

/** What deciding a review did. */
export interface ReviewDecisionResult {
  readonly id: string;
  readonly decided: boolean;
  readonly status: string;
  /** The call's outcome when the approval ran it (or decided again that it may not run), gated for the reviewer. */
  readonly execution?: {
    readonly status: string;
    readonly modelContent: string;
    readonly decision: StageDecision;
  };
  /** A flagged request a reviewer cleared: its result after it ran (gated for the reviewer). */
  readonly request?: GatedRequestResult;
  /** The deep task that continues after this review. */
  readonly resumedTask?: string;
  /** Why the decision was refused (four-eyes: the requester may not approve their own call). */
  readonly refused?: { readonly ruleId: string; readonly reason: string };
}

export type LineName = 'deep' | 'quick' | 'readonly';

/** `handle`'s options: a line request's, with gated events and the door's channel. */
export type PlatformRequestOptions = Omit<RequestOptions, 'emit'> & {
  /** The door, recorded in the watermark (default `api`). */
  readonly channel?: string;
  /** Receives every event of the request, gated for the requester. */
  readonly emit?: (event: GatedLineEvent) => void;
};

/** Twinline assembled: one gateway per line, the lines, the dispatcher, reviews and resilience. */
export interface Platform {
  readonly runtime: Runtime;
  readonly store: Store;
  readonly gateways: Readonly<Record<LineName, ToolGateway>>;
  readonly dispatcher: LineDispatcher;
  readonly deep: DeepLine;
  /** The read-only line: retrieval answers, and the degraded path with a ticket. */
  readonly readonlyLine: ReadonlyLine;
  readonly reviews: ReviewService;
  readonly breakers: ToolBreakers;
  readonly routing: RoutingLog;
  /** The domain's router (its rules and, when configured, its trained model). */
  readonly router: ConfiguredRouter;
  /** The lines' tool names after patterns were expanded (`lines.*.allow`). */
  readonly lineTools: { readonly deep: readonly string[]; readonly quick: readonly string[] };
  readonly cache: QuickResultCache;
  /** Fair admission of deep tasks (caps per tenant and user; shared in the store on PostgreSQL). */
  readonly deepQueue: DeepAdmission;
  /** Summary events between lines (the context bus) and each user's recent summaries. */
  readonly context: RecentSummaries;
  /** The egress gate every text this platform sends passes (docs/gates.md, "Egress"). */
  readonly egress: Egress;
  /**
   * Routes and runs one request for a trusted identity. Everything that leaves passes the egress
   * gate for that identity: the answer (outbound classifier, PII masking for the viewer, session
   * watermark) and every event handed to `emit` (streamed text held to a safe boundary first).
   */
  handle(identity: Identity, query: string, options?: PlatformRequestOptions): Promise<GatedRequestResult>;
  /** Cancels a deep task: aborts it here if it runs here, and marks it so no process continues it. */
  cancelTask(tenant: string, taskId: string): Promise<boolean>;
  /** Approves a review (reviewer of the same tenant): runs the call once, and continues its task. */
  approveReview(reviewer: Identity, id: string, note?: string): Promise<ReviewDecisionResult>;
  /** Denies a review; a deep task waiting on it continues without that step. */
  denyReview(reviewer: Identity, id: string, note?: string): Promise<ReviewDecisionResult>;
  /** Starts every deep task left unfinished by a stopped process (whose lease has lapsed). */
  resumeTasks(): Promise<number>;
  close(): Promise<void>;
}

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
  const breakers = new ToolBreakers({
    ...options.breakers,
    // On Redis an open breaker in one process refuses the tool in all of them.
    ...(options.redis
      ? { shared: new SharedBreakerState(options.redis, `${options.redisPrefix ?? 'twinline'}:breaker`) }
      : {}),
  });
  // The cache runs on the platform's clock, so expiry follows an injected `now`.
  // Shared across processes on Redis (reads and, above all, their invalidation); else in process.
  const cache = new QuickResultCache(
    options.redis
      ? new RedisCacheBackend(options.redis, `${options.redisPrefix ?? 'twinline'}:cache`)
      : new MemoryCacheBackend(10_000, () => now().getTime()),
  );
  const limiter = new UserRateLimiter({
    points: options.quickQps ?? 10,
    durationSeconds: options.quickWindowSeconds ?? 1,
    ...(options.redis ? { redis: options.redis } : {}),
    keyPrefix: `${options.redisPrefix ?? 'twinline'}:quick`,
  });

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
  const deepTools = new LineToolCatalog(allowed(lineTools.deep).map((t) => withBreaker(t, breakers)));
  const quickTools = new LineToolCatalog(
    allowed(lineTools.quick).map((t) => withQuickCache(withBreaker(t, breakers), cache)),
  );
  const readonlyTools = new LineToolCatalog(
    allowed(retrieval ? [retrieval] : []).map((t) => withBreaker(t, breakers)),
  );

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
  const site = (tools: LineToolCatalog): GatewaySite => ({ tools, allow: tools.names });
  const sites = { deep: site(deepTools), quick: site(quickTools), readonly: site(readonlyTools) };
  const gateways = {
    deep: pipeline.gateway(PROFILES['serve.deep'], sites.deep),
    quick: pipeline.gateway(PROFILES['serve.quick'], sites.quick),
    readonly: pipeline.gateway(PROFILES['serve.readonly'], sites.readonly),
  };
  // Approved reviews run again on the profile of the line they came from, review slot aside.
  const replays = {
    deep: pipeline.gateway(reviewReplayProfile(PROFILES['serve.deep']), sites.deep),
    quick: pipeline.gateway(reviewReplayProfile(PROFILES['serve.quick']), sites.quick),
    readonly: pipeline.gateway(reviewReplayProfile(PROFILES['serve.readonly']), sites.readonly),
  };

  const resolveIdentity = (tenant: string, user: string): Identity | undefined =>
    runtime.identities.find(user, tenant);
  const source = providerSource(options.model ?? env.TWINLINE_MODEL, env, config.model);
  const deepPrompts = {
    ...(config.prompts?.planner ? { planner: config.prompts.planner } : {}),
    ...(config.prompts?.composer ? { composer: config.prompts.composer } : {}),
  };
  const wrapProvider = options.wrapProvider;
  const wrapped = wrapProvider
    ? () => {
        const p = source();
        return p ? wrapProvider(p) : undefined;
      }
    : source;
  // Every model turn of the lines is traced and measured when telemetry is on.
  const newProvider = telemetry
    ? () => {
        const p = wrapped();
        return p ? telemetry.provider(p) : undefined;
      }
    : wrapped;

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
    catalog: quickTools,
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

  /**
   * A request the input gate stopped, in the audit beside the tool calls (docs/operations.md,
   * "Decision log"): the query only as the decision log keeps arguments, its review linked.
   */
  const auditInput = (
    identity: Identity,
    sessionId: string,
    query: string,
    verdict: { verdict: string; score: number; findings: readonly { type: string; reason: string }[] },
    reviewId: string,
  ) => {
    const time = now();
    const d = decide(
      verdict.verdict === 'block' ? 'deny' : 'review',
      'input',
      `input.${verdict.verdict}`,
      `input gate: ${verdict.verdict} (score ${verdict.score}): ${verdict.findings
        .map((f) => f.reason)
        .slice(0, 3)
        .join('; ')}`,
      { details: { score: verdict.score, findings: [...new Set(verdict.findings.map((f) => f.type))] } },
    );
    const logged = pipeline.auditArguments?.({ name: INPUT_REVIEW_NAME } as ToolSpec, { query });
    audit.record({
      id: uuidV7(time.getTime()),
      time: time.toISOString(),
      tenant: identity.tenant,
      user: identity.user,
      sessionId,
      agent: 'input_gate',
      domain: 'input',
      tool: INPUT_REVIEW_NAME,
      callId: `input-${reviewId}`,
      argsHash: hashCanonical({ query }),
      status: verdict.verdict === 'block' ? 'denied' : 'review',
      decisionPath: [d],
      resultSummary: `queued for review ${reviewId}`,
      durationMs: 0,
      decidedBy: { stage: d.stage, ruleId: d.ruleId, reason: d.reason, verdict: d.verdict },
      reviewId,
      ...(logged ? { args: logged.args, argsLevel: logged.level } : {}),
    });
  };

  /** A part of the request path in its own span (when tracing), ended with what `describe` reads. */
  const inSpan = <T>(name: string, fn: () => T, describe: (r: T) => Record<string, string | number>): T => {
    if (!tracer) return fn();
    const span = tracer.start(name);
    try {
      const r = fn();
      span.set(describe(r));
      return r;
    } finally {
      span.end();
    }
  };

  const dispatcher = new LineDispatcher({
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
    flagInput: async ({ identity, sessionId, query, verdict }) => {
      const parked = await store.forTenant(identity.tenant).reviews.enqueue({
        kind: 'input',
        tenant: identity.tenant,
        user: identity.user,
        sessionId,
        query,
        identity,
        reason: `input gate: ${verdict.verdict} (score ${verdict.score}): ${verdict.findings
          .map((f) => f.reason)
          .slice(0, 3)
          .join('; ')}`,
        expiresAt: new Date(now().getTime() + 24 * 3600_000).toISOString(),
      });
      auditInput(identity, sessionId, query, verdict, parked.id);
      return parked;
    },
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

  const running = new Map<string, AbortController>();
  /** Queues a persisted task fairly; a tenant whose backlog is full waits for the next sweep. */
  const runTask = (task: { tenant: string; user: string; id: string }) => {
    const { tenant, id: taskId } = task;
    if (!deepQueue.hasRoom(tenant)) return { done: Promise.resolve(undefined) };
    const ac = new AbortController();
    running.set(taskId, ac);
    const queuedAt = performance.now();
    return deepQueue.submit({ tenant, user: task.user, taskId }, async () => {
      telemetry?.metrics?.queueWait('deep', (performance.now() - queuedAt) / 1000);
      try {
        return await deep.run(tenant, taskId, () => {}, ac.signal);
      } finally {
        if (running.get(taskId) === ac) running.delete(taskId);
      }
    });
  };

  /** Finds the deep task parked on a review and lets it continue. */
  const continueTaskAfter = async (
    tenant: string,
    reviewId: string,
    status: 'executed' | 'failed' | 'denied' | 'expired',
    summary: string,
  ) => {
    const tasks = store.forTenant(tenant).tasks;
    for (const task of await tasks.listTasks({ status: 'awaiting_review', limit: 1000 })) {
      if (deep.awaitedReview(task) !== reviewId) continue;
      // False when someone else (the parked run, a sweep, another process) moved it on first.
      if (!(await deep.resolveReview(tenant, task.id, { reviewId, status, summary }))) return undefined;
      runTask(task).done.catch(() => {});
      return task.id;
    }
    // Not parked yet: the run that is parking it finds the decision when it has.
    return undefined;
  };

  /**
   * Parked tasks whose review ended without waking them: decided by a rule or expired in a sweep,
   * or approved in a process that stopped before it could continue the task.
   */
  const wakeSettledTasks = async () => {
    let woken = 0;
    for (const task of await store.admin.tasks.listTasks({ status: 'awaiting_review', limit: 1000 })) {
      if (task.line !== 'deep' || deep.handles(task.id)) continue;
      if (await deep.settleParked(task.tenant, task.id)) {
        runTask(task).done.catch(() => {});
        woken++;
      }
    }
    return woken;
  };

  const decideInputReview = async (
    reviewer: Identity,
    id: string,
    approve: boolean,
    note?: string,
  ): Promise<ReviewDecisionResult> => {
    const reviewsRepo = store.forTenant(reviewer.tenant).reviews;
    const pending = await reviewsRepo.get(id);
    if (approve && pending?.status === 'pending' && pending.user === reviewer.user) {
      // Four-eyes: a flagged request is cleared by someone other than its author.
      return {
        id,
        decided: false,
        status: pending.status,
        refused: {
          ruleId: 'review.four-eyes',
          reason: `${reviewer.user} wrote this request and may not clear it; another reviewer must`,
        },
      };
    }
    const { changed } = await reviewsRepo.decide(id, {
      decision: approve ? 'approved' : 'denied',
      by: reviewer.user,
      ...(note !== undefined ? { note } : {}),
    });
    const item = await reviewsRepo.get(id);
    if (!approve || !changed || !item || !(await reviewsRepo.claimForExecution(id))) {
      return { id, decided: changed, status: item?.status ?? 'missing' };
    }
    // The reviewer vouched for the text; it now takes the normal path as its author.
    const author = resolveIdentity(item.tenant, item.user);
    const query = item.kind === 'input' ? item.query : '';
    const result = author
      ? await dispatcher.handle(author, query, { sessionId: item.sessionId, inputReviewed: true })
      : undefined;
    await reviewsRepo.complete(id, {
      status: result ? 'executed' : 'failed',
      // Stored gated for the lowest level before it is cut: a value cut in half is no longer
      // recognised by the gate that runs when the summary is read, nor a steer to an address.
      resultSummary: result
        ? `${result.outcome}: ${storedSummary(item.tenant, item.sessionId, result.text)}`
        : 'author no longer exists',
    });
    return {
      id,
      decided: true,
      status: result ? 'executed' : 'failed',
      ...(result ? { request: gateRequestResult(reviewGate(reviewer, item.sessionId), result) } : {}),
    };
  };

  /** Text kept in the store for anyone to read later: gated for level L1, unmarked, cut short. */
  const storedSummary = (tenant: string, sessionId: string, text: string): string =>
    egress
      .for({ viewer: { tenant, user: 'store', dataLevel: 'L1' }, sessionId, channel: 'review' })
      .value(text)
      .slice(0, 200);

  /** The gate for what a reviewer is sent about a review of session `sessionId`. */
  const reviewGate = (reviewer: Identity, sessionId: string): EgressGate =>
    egress.for({ viewer: reviewer, sessionId, channel: 'review' });

  return {
    async approveReview(reviewer, id, note) {
      const item = await store.forTenant(reviewer.tenant).reviews.get(id);
      if (!item) return { id, decided: false, status: 'missing' };
      if (item.kind === 'input') return decideInputReview(reviewer, id, true, note);
      const outcome = await reviews.approve(id, reviewer.user, note);
      if (outcome.refused) return { id, decided: false, status: outcome.status, refused: outcome.refused };
      // Losing the claim to another approver (or process) is not an execution of ours.
      const exec =
        outcome.execution?.decision.ruleId === 'review.not-claimable' ? undefined : outcome.execution;
      const resumedTask = exec
        ? await continueTaskAfter(
            item.tenant,
            id,
            exec.status === 'executed' ? 'executed' : 'failed',
            exec.modelContent,
          )
        : undefined;
      return {
        id,
        decided: outcome.decided,
        status: outcome.status,
        ...(exec
          ? {
              execution: {
                status: exec.status,
                modelContent: reviewGate(reviewer, item.sessionId).text(exec.modelContent),
                decision: reviewGate(reviewer, item.sessionId).value(exec.decision),
              },
            }
          : {}),
        ...(resumedTask ? { resumedTask } : {}),
      };
    },
    async denyReview(reviewer, id, note) {
      const item = await store.forTenant(reviewer.tenant).reviews.get(id);
      if (!item) return { id, decided: false, status: 'missing' };
      if (item.kind === 'input') return decideInputReview(reviewer, id, false, note);
      const outcome = await reviews.deny(id, reviewer.user, note);
      const resumedTask = outcome.decided
        ? await continueTaskAfter(item.tenant, id, 'denied', note ?? 'denied by a reviewer')
        : undefined;
      return {
        id,
        decided: outcome.decided,
        status: outcome.status,
        ...(resumedTask ? { resumedTask } : {}),
      };
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
    async handle(identity, query, opts = {}) {
      const started = logger ? performance.now() : 0;
      const { channel = 'api', emit, ...rest } = opts;
      // The session is fixed here, not by the dispatcher: streamed text is marked with it.
      const sessionId = rest.sessionId ?? randomUUID();
      const gate = egress.for({ viewer: identity, sessionId, channel });
      const events = emit ? new LineEventEgress(gate, emit) : undefined;
      const run = async () => {
        const result = await dispatcher.handle(identity, query, {
          ...rest,
          sessionId,
          ...(rest.provider && telemetry ? { provider: telemetry.provider(rest.provider) } : {}),
          ...(events ? { emit: (e) => events.accept(e) } : {}),
        });
        events?.end();
        if (logger?.isLevelEnabled('info'))
          logger.info(requestLogLine(identity, channel, result, started), 'request');
        return inSpan(
          'twinline.output_gate',
          () => gateRequestResult(gate, result),
          (g) => ({ 'twinline.output.verdict': g.outputGate.verdict, 'twinline.channel': channel }),
        );
      };
      if (!tracer) return run();
      const span = tracer.start('twinline.request', {
        attributes: {
          'twinline.tenant': identity.tenant,
          'twinline.channel': channel,
          'gen_ai.conversation.id': sessionId,
        },
      });
      return runInSpan(span, run, (result) => ({
        'twinline.request.id': result.requestId,
        'twinline.route.target': result.route.target,
        'twinline.outcome': result.outcome,
      }));
    },
    async cancelTask(tenant, taskId) {
      const tasks = store.forTenant(tenant).tasks;
      const task = await tasks.getTask(taskId);
      if (!task || ['completed', 'failed', 'cancelled', 'denied'].includes(task.status)) return false;
      running.get(taskId)?.abort('cancelled');
      // Still waiting for admission here: it leaves the queue and never starts.
      deepQueue.cancel(taskId);
      await tasks.updateTask(taskId, { status: 'cancelled' });
      return true;
    },
    async resumeTasks() {
      let started = await wakeSettledTasks();
      for (const status of ['queued', 'running', 'planning', 'interrupted']) {
        for (const task of await store.admin.tasks.listTasks({ status, limit: 1000 })) {
          if (task.line !== 'deep' || running.has(task.id) || deep.handles(task.id)) continue;
          runTask(task).done.catch(() => {});
          started++;
        }
      }
      return started;
    },
    async close() {
      for (const ac of running.values()) ac.abort('shutting down');
      deepQueue.close();
      breakers.shutdown();
      context.close();
      if (ownBus) await context.bus.close();
      await runtime.close();
    },
  };
}

/** A request's log line: who, where it went, how it ended, how long it took. Never its text. */
function requestLogLine(identity: Identity, channel: string, r: RequestResult, started: number) {
  return {
    requestId: r.requestId,
    sessionId: r.sessionId,
    tenant: identity.tenant,
    user: identity.user,
    channel,
    route: r.route.target,
    rule: r.route.rule,
    ...(r.route.routing ? { routing: r.route.routing } : {}),
    outcome: r.outcome,
    executed: r.executed.length,
    denied: r.denied.length,
    ...(r.taskId ? { taskId: r.taskId } : {}),
    ...(r.ticketId ? { ticketId: r.ticketId } : {}),
    latencyMs: Math.round((performance.now() - started) * 10) / 10,
  };
}

/** A gateway decision's log line (the audit record without its hashes and summaries). */
function decisionLogLine(rec: AuditRecord) {
  const deciding = rec.decisionPath.at(-1);
  return {
    sessionId: rec.sessionId,
    tenant: rec.tenant,
    user: rec.user,
    line: rec.domain,
    agent: rec.agent,
    tool: rec.tool,
    decision: rec.status,
    ...(deciding ? { stage: deciding.stage, rule: deciding.ruleId } : {}),
    latencyMs: rec.durationMs,
  };
}

function unavailableProvider(): ModelProvider {
  return {
    kind: 'none',
    model: 'none',
    // biome-ignore lint/correctness/useYield: a provider that fails at once: no model is configured.
    async *turn() {
      throw new NoProviderError();
    },
  };
}
