import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Identity, TracerPort } from '../core/index.js';
import { TwinlineError } from '../core/index.js';
import { gatedReview, gatedSteps, gatedTask } from '../gates/index.js';
import { type GatedLineEvent, readTaskState } from '../lines/index.js';
import type { Platform } from '../platform/index.js';
import { isStoreUnavailable } from '../store/index.js';
import type { TwinlineLogger } from '../telemetry/index.js';
import {
  AuthenticationError,
  Authenticator,
  type AuthSettings,
  type MetricsKeyEntry,
  MetricsKeys,
  readCredential,
} from './auth/index.js';
import { BadRequestError, ForbiddenError, NotFoundError, parseInput } from './errors.js';
import { traceRoutes } from './http-tracing.js';
import type { ServerMetrics } from './metrics.js';
import { buildOpenApi } from './openapi.js';
import { AuditViews } from './routes/audit-views.js';
import { auditFilter, registerOperatorRoutes } from './routes/operator-routes.js';
import { reviewDetails } from './routes/review-details.js';
import {
  auditQuery,
  idParam,
  listQuery,
  requestBody,
  reviewDecisionBody,
  reviewDenyBody,
  reviewsQuery,
  routeBody,
} from './schemas.js';
import type { VersionChoice } from './version-router.js';

export interface ServerOptions {
  readonly platform: Platform;
  readonly auth: AuthSettings;
  /** Roles that may see and decide the tenant's reviews and read its whole audit. */
  readonly reviewerRoles?: readonly string[];
  /** Roles that, like reviewers, see every entry of their own tenant's lists (default `[admin]`). */
  readonly adminRoles?: readonly string[];
  /** Roles that may read the tenant's whole audit, tasks and reviews, and decide nothing. */
  readonly auditorRoles?: readonly string[];
  readonly metrics?: ServerMetrics;
  /**
   * Operator keys that may read `GET /metrics` here. Without any, `/metrics` is refused on this
   * listener (serve it on a listener of its own with `buildMetricsServer`).
   */
  readonly metricsKeys?: readonly MetricsKeyEntry[];
  readonly version: string;
  /** Picks the platform (config version) that serves a user's requests; default: `platform`. */
  readonly platformFor?: (identity: Identity) => Promise<VersionChoice>;
  /** Largest accepted request body. */
  readonly bodyLimit?: number;
  /** One line per HTTP request: id, tenant, route, status, latency (never bodies or credentials). */
  readonly logger?: TwinlineLogger;
  /** Aborted when the server gives up waiting for in-flight requests: their model calls stop. */
  readonly shutdownSignal?: AbortSignal;
  /** Ingress spans for the API's routes (docs/operations.md, "Traces"); absent: none. */
  readonly tracer?: TracerPort | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    identity?: Identity;
  }
}

/** Seconds a client is told to wait when the database is unavailable (a restart takes about this). */
const STORE_RETRY_AFTER_S = 1;

const CONSOLE_DIR = fileURLToPath(new URL('../../console/', import.meta.url));
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

// Every route each server registered ("METHOD url"): the egress route test checks each against
// ROUTE_EGRESS (docs/gates.md, "Gated doors").
const registered = new WeakMap<FastifyInstance, string[]>();

/** The routes `buildServer` registered on `app`, as `METHOD url` (HEAD left out). */
export function registeredRoutes(app: FastifyInstance): readonly string[] {
  return registered.get(app) ?? [];
}

/**
 * The HTTP API and the web console of `twinline serve`. Identity comes only from the credential
 * (API key or JWT) and the directory; every read and write is scoped to that identity's tenant.
 */
export function buildServer(options: ServerOptions): FastifyInstance {
  const { platform } = options;
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimit ?? 256 * 1024,
    return503OnClosing: true,
    // The id a request is logged under is the one its answer carries (`requestId`).
    genReqId: () => randomUUID(),
  });
  const routes: string[] = [];
  registered.set(app, routes);
  app.addHook('onRoute', (r) => {
    for (const m of [r.method].flat()) if (m !== 'HEAD') routes.push(`${m} ${r.url}`);
  });
  if (options.tracer) traceRoutes(app, options.tracer);
  const auth = new Authenticator(options.auth, (tenant, user) => {
    try {
      return platform.runtime.identities.resolve(user, tenant);
    } catch {
      return undefined;
    }
  });
  const reviewerRoles = new Set(options.reviewerRoles ?? ['reviewer']);
  const adminRoles = new Set(options.adminRoles ?? ['admin']);
  const isReviewer = (id: Identity) => id.roles.some((r) => reviewerRoles.has(r));
  const auditorRoles = new Set(options.auditorRoles ?? ['auditor']);
  const isAuditor = (id: Identity) => id.roles.some((r) => auditorRoles.has(r));
  // Who sees every entry of the tenant's lists (reviewers, admins, auditors); anyone else sees
  // only their own (docs/server.md, "Visibility"). Auditors read; only reviewers decide.
  const seesTenant = (id: Identity) =>
    isReviewer(id) || isAuditor(id) || id.roles.some((r) => adminRoles.has(r));
  const readsTenant = seesTenant;
  /** The user a list is narrowed to: the caller's own, unless they may see the whole tenant. */
  const ownUnlessPrivileged = (id: Identity, asked?: string) => (seesTenant(id) ? asked : id.user);
  const metricsKeys = new MetricsKeys(options.metricsKeys ?? []);
  const openapi = buildOpenApi(options.version);

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof AuthenticationError)
      return reply.code(401).send({ error: err.code, message: err.message });
    if (err instanceof BadRequestError) {
      return reply
        .code(err.status)
        .send({ error: err.code, message: err.message, ...(err.where ? { field: err.where } : {}) });
    }
    if (err instanceof ForbiddenError || err instanceof NotFoundError) {
      return reply.code(err.status).send({ error: err.code, message: err.message });
    }
    if (isStoreUnavailable(err)) {
      // The database is restarting or unreachable: a condition that passes, so say when to retry.
      return reply
        .code(503)
        .header('retry-after', String(STORE_RETRY_AFTER_S))
        .send({
          error: 'unavailable',
          message: 'database unavailable, retry shortly',
          retryAfterMs: STORE_RETRY_AFTER_S * 1000,
        });
    }
    if (err instanceof TwinlineError) {
      // A refusal's message can quote what a model or tool wrote: gated for the caller.
      const message = req.identity
        ? platform.egress.for({ viewer: req.identity, sessionId: 'error', channel: 'api' }).value(err.message)
        : err.message;
      return reply.code(422).send({ error: err.code, message });
    }
    const e = err as { statusCode?: number; code?: string; message?: string };
    if (e.statusCode && e.statusCode < 500) {
      // Fastify's own refusals: malformed JSON, body too large, wrong content type.
      return reply
        .code(e.statusCode)
        .send({ error: 'bad_request', message: e.message ?? 'bad request', field: 'body' });
    }
    return reply.code(500).send({ error: 'internal', message: 'internal error' });
  });
  app.setNotFoundHandler((req, reply) =>
    reply.code(404).send({ error: 'not_found', message: `no route ${req.method} ${req.url}` }),
  );

  const logger = options.logger;
  if (logger) {
    app.addHook('onResponse', async (req, reply) => {
      if (!logger.isLevelEnabled('info')) return;
      logger.info(
        {
          requestId: req.id,
          method: req.method,
          route: req.routeOptions.url ?? 'unknown',
          status: reply.statusCode,
          ...(req.identity ? { tenant: req.identity.tenant, user: req.identity.user } : {}),
          latencyMs: Math.round(reply.elapsedTime * 10) / 10,
        },
        'http',
      );
    });
  }

  /**
   * The signal of one request's work: aborted when its client goes away before the answer, or
   * when the server's shutdown grace is over.
   */
  const requestSignal = (reply: FastifyReply): AbortSignal => {
    const ac = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) ac.abort('client went away');
    });
    const shutdown = options.shutdownSignal;
    if (!shutdown) return ac.signal;
    return AbortSignal.any([ac.signal, shutdown]);
  };

  if (options.metrics) {
    const m = options.metrics;
    app.addHook('onResponse', async (req, reply) => {
      m.http.observe(
        { route: req.routeOptions.url ?? 'unknown', method: req.method, status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    });
  }

  const authed = async (req: FastifyRequest) => {
    req.identity = await auth.authenticate(req.headers);
  };
  const who = (req: FastifyRequest): Identity => req.identity as Identity;
  /** The egress gate for what this request's caller is sent (docs/gates.md, "Gated doors"). */
  const gateFor = (req: FastifyRequest, sessionId: string) =>
    platform.egress.for({ viewer: who(req), sessionId, channel: 'api' });

  app.get('/v1/health', async () => {
    await platform.store.audit.query({ limit: 1 });
    return { status: 'ok', version: options.version, store: platform.store.dialect };
  });
  app.get('/openapi.json', async () => openapi);
  app.get('/metrics', async (req, reply) => {
    if (!options.metrics) throw new NotFoundError('metrics');
    // The operator's, never a tenant's: only a metrics key opens it on this listener.
    const credential = readCredential(req.headers);
    if (!credential) throw new AuthenticationError('missing credential: /metrics needs a metrics key');
    if (!metricsKeys.accepts(credential)) {
      if (
        await auth.authenticate(req.headers).then(
          () => true,
          () => false,
        )
      )
        throw new ForbiddenError('/metrics needs a metrics key, not a tenant credential');
      throw new AuthenticationError('unknown metrics key');
    }
    return sendMetrics(options.metrics, reply);
  });

  app.get('/', async (_req, reply) => reply.redirect('/console/'));
  app.get('/console', async (_req, reply) => reply.redirect('/console/'));
  app.get('/console/*', async (req, reply) => {
    const rest = (req.params as { '*': string })['*'] || 'index.html';
    const file = normalize(join(CONSOLE_DIR, rest));
    if (!file.startsWith(CONSOLE_DIR) || !CONTENT_TYPES[extname(file)]) throw new NotFoundError(rest);
    const body = await readFile(file).catch(() => {
      throw new NotFoundError(rest);
    });
    reply.header('content-type', CONTENT_TYPES[extname(file)]!);
    reply.header('cache-control', 'no-cache');
    return reply.send(body);
  });

  const auditViews = new AuditViews(platform.runtime.registry);
  app.register(async (v1) => {
    v1.addHook('preHandler', authed);
    registerOperatorRoutes(v1, { platform, readsTenant, gateFor });

    v1.get('/v1/whoami', async (req) => {
      const id = who(req);
      return {
        tenant: id.tenant,
        user: id.user,
        roles: id.roles,
        dataLevel: id.dataLevel,
        reviewer: isReviewer(id),
        auditor: isAuditor(id),
      };
    });

    v1.post('/v1/requests', async (req, reply) => {
      const body = parseInput(requestBody, req.body, 'body');
      const stream = body.stream ?? (req.query as { stream?: string }).stream === 'true';
      const identity = who(req);
      const choice = options.platformFor ? await options.platformFor(identity) : { platform };
      const served = choice.version ? { configVersion: choice.version } : {};
      if (!stream) {
        const result = await choice.platform.handle(identity, body.query, {
          requestId: req.id,
          ...(body.sessionId ? { sessionId: body.sessionId } : {}),
          waitForDeep: body.wait === true,
          signal: requestSignal(reply),
        });
        options.metrics?.requests.inc({ target: result.route.target, outcome: result.outcome });
        return reply.code(result.outcome === 'queued' ? 202 : 200).send({ ...result, ...served });
      }
      return streamRequest(reply, choice.platform, identity, body, options.metrics, {
        requestId: req.id,
        ...(options.shutdownSignal ? { shutdownSignal: options.shutdownSignal } : {}),
      });
    });

    v1.post('/v1/route', async (req) => {
      const body = parseInput(routeBody, req.body, 'body');
      const decision = platform.router.route(body.query);
      const id = who(req);
      platform.routing.add({
        time: new Date().toISOString(),
        tenant: id.tenant,
        user: id.user,
        query: body.query.slice(0, 200),
        target: decision.target,
        scores: decision.scores,
        rule: decision.rule,
        ...(decision.routing ? { routing: decision.routing } : {}),
      });
      return decision;
    });

    v1.get('/v1/routing', async (req) => {
      const q = parseInput(listQuery, req.query, 'query');
      const id = who(req);
      const gate = gateFor(req, 'routing');
      return {
        decisions: platform.routing.recent(id.tenant, q.limit, ownUnlessPrivileged(id)).map((d) => ({
          ...d,
          query: gate.value(d.query),
        })),
      };
    });

    v1.get('/v1/tasks', async (req) => {
      const q = parseInput(listQuery, req.query, 'query');
      const id = who(req);
      const user = ownUnlessPrivileged(id);
      const tasks = await platform.store
        .forTenant(id.tenant)
        .tasks.listTasks({ ...(user ? { user } : {}), limit: q.limit });
      return { tasks: tasks.map((t) => gatedTask(gateFor(req, t.id), taskView(t))) };
    });

    v1.get('/v1/tasks/:id', async (req) => {
      const { id: taskId } = parseInput(idParam, req.params, 'path');
      const id = who(req);
      const tasks = platform.store.forTenant(id.tenant).tasks;
      const task = await tasks.getTask(taskId);
      if (!task || (!seesTenant(id) && task.user !== id.user)) throw new NotFoundError(`task ${taskId}`);
      const steps = await tasks.getSteps(taskId);
      const state = readTaskState(task);
      const gate = gateFor(req, task.id);
      return {
        task: gatedTask(gate, taskView(task)),
        steps: gatedSteps(gate, steps),
        ...(state?.plan
          ? { plan: { goal: gate.value(state.plan.goal), capabilities: state.plan.capabilities } }
          : {}),
        ...(state?.final !== undefined ? { result: gate.text(state.final) } : {}),
      };
    });

    v1.post('/v1/tasks/:id/cancel', async (req) => {
      const { id: taskId } = parseInput(idParam, req.params, 'path');
      const id = who(req);
      const task = await platform.store.forTenant(id.tenant).tasks.getTask(taskId);
      if (!task || (!seesTenant(id) && task.user !== id.user)) throw new NotFoundError(`task ${taskId}`);
      const cancelled = await platform.cancelTask(id.tenant, taskId);
      return { id: taskId, cancelled };
    });

    v1.get('/v1/reviews', async (req) => {
      const q = parseInput(reviewsQuery, req.query, 'query');
      const id = who(req);
      const user = ownUnlessPrivileged(id);
      const tenant = platform.store.forTenant(id.tenant);
      const visible = await tenant.reviews.list({
        ...(q.status ? { status: q.status } : {}),
        ...(user ? { user } : {}),
        limit: q.limit,
      });
      const details = await reviewDetails(tenant.tasks, visible);
      return {
        now: new Date().toISOString(),
        reviews: visible.map((r) =>
          gatedReview(gateFor(req, r.sessionId), { ...reviewView(r), ...details(r) }),
        ),
      };
    });

    for (const verb of ['approve', 'deny'] as const) {
      v1.post(`/v1/reviews/:id/${verb}`, async (req) => {
        const { id: reviewId } = parseInput(idParam, req.params, 'path');
        const body = parseInput(verb === 'deny' ? reviewDenyBody : reviewDecisionBody, req.body, 'body');
        const id = who(req);
        if (!isReviewer(id)) throw new ForbiddenError('only reviewers may decide reviews');
        const item = await platform.store.forTenant(id.tenant).reviews.get(reviewId);
        if (!item) throw new NotFoundError(`review ${reviewId}`);
        const outcome =
          verb === 'approve'
            ? await platform.approveReview(id, reviewId, body.note)
            : await platform.denyReview(id, reviewId, body.note);
        if (outcome.refused) throw new ForbiddenError(outcome.refused.reason, 'four_eyes');
        return outcome;
      });
    }

    v1.get('/v1/audit', async (req) => {
      const q = parseInput(auditQuery, req.query, 'query');
      const id = who(req);
      const records = await platform.store
        .forTenant(id.tenant)
        .audit.query(auditFilter(q, id, readsTenant(id)));
      const gate = gateFor(req, 'audit');
      return { records: records.map((r) => auditViews.view(gate, r, id)) };
    });

    // The caller's tenant's breakers only; the tool-wide state shows, other tenants' counts do not.
    v1.get('/v1/breakers', async (req) => ({ breakers: platform.breakers.snapshot(who(req).tenant) }));
  });

  return app;
}

function sendMetrics(metrics: ServerMetrics, reply: FastifyReply): Promise<string> {
  reply.header('content-type', metrics.registry.contentType);
  reply.header('cache-control', 'no-store');
  return metrics.registry.metrics();
}

/**
 * A listener that serves only `GET /metrics`, without credentials: bind it to an address only the
 * operator's scraper reaches (`metrics.listen` in auth.yaml, or `TWINLINE_METRICS_LISTEN`).
 */
export function buildMetricsServer(metrics: ServerMetrics): FastifyInstance {
  const app = Fastify({ logger: false, return503OnClosing: true });
  app.get('/metrics', async (_req, reply) => sendMetrics(metrics, reply));
  app.setNotFoundHandler((req, reply) =>
    reply.code(404).send({ error: 'not_found', message: `no route ${req.method} ${req.url}` }),
  );
  return app;
}

async function streamRequest(
  reply: FastifyReply,
  platform: Platform,
  identity: Identity,
  body: { query: string; sessionId?: string | undefined },
  metrics: ServerMetrics | undefined,
  request: { requestId: string; shutdownSignal?: AbortSignal },
): Promise<void> {
  const ac = new AbortController();
  const signal = request.shutdownSignal ? AbortSignal.any([ac.signal, request.shutdownSignal]) : ac.signal;
  // The response's `close`, not the request's: the request stream closes once its body has been
  // read, which only happens to precede this listener today (the hooks before the handler are
  // async); the response closes early only when the connection goes away before the stream ended.
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) ac.abort('client went away');
  });
  reply.hijack();
  reply.raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  const send = (event: string, data: unknown) => {
    if (!reply.raw.writableEnded) reply.raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  try {
    const result = await platform.handle(identity, body.query, {
      requestId: request.requestId,
      ...(body.sessionId ? { sessionId: body.sessionId } : {}),
      channel: 'sse',
      emit: (e: GatedLineEvent) =>
        send(
          // The agent's own `result` is one step of the request; the request's result comes last.
          e.type === 'agent' ? (e.event.type === 'result' ? 'agent_result' : e.event.type) : e.type,
          e.type === 'agent' ? e.event : e,
        ),
      signal,
      waitForDeep: true,
    });
    metrics?.requests.inc({ target: result.route.target, outcome: result.outcome });
    send('result', result);
  } catch (err) {
    // An error's message can quote a tool's or the model's words: it leaves gated too.
    const gate = platform.egress.for({
      viewer: identity,
      sessionId: body.sessionId ?? 'error',
      channel: 'sse',
    });
    send(
      'error',
      isStoreUnavailable(err)
        ? {
            error: 'unavailable',
            message: 'database unavailable, retry shortly',
            retryAfterMs: STORE_RETRY_AFTER_S * 1000,
          }
        : {
            error: 'internal',
            message: err instanceof TwinlineError ? gate.value(err.message) : 'internal error',
          },
    );
  } finally {
    reply.raw.end();
  }
}

function taskView(t: {
  id: string;
  line: string;
  status: string;
  request: string;
  user: string;
  currentStep: number;
  createdAt: string;
  updatedAt: string;
}) {
  return {
    id: t.id,
    line: t.line,
    status: t.status,
    request: t.request,
    user: t.user,
    currentStep: t.currentStep,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

function reviewView(r: {
  id: string;
  tenant: string;
  user: string;
  agent: string;
  domain: string;
  tool: string;
  args: unknown;
  reason: string;
  decisionPath: unknown[];
  status: string;
  createdAt: string;
  expiresAt: string;
  decidedBy?: string;
  resultSummary?: string;
}) {
  return {
    id: r.id,
    tenant: r.tenant,
    user: r.user,
    agent: r.agent,
    domain: r.domain,
    tool: r.tool,
    args: r.args,
    reason: r.reason,
    decisionPath: r.decisionPath,
    status: r.status,
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
    ...(r.decidedBy ? { decidedBy: r.decidedBy } : {}),
    ...(r.resultSummary ? { resultSummary: r.resultSummary } : {}),
  };
}
