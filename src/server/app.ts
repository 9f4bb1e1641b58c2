import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Identity, TracerPort } from '../core/index.js';
import { TwinlineError } from '../core/index.js';
import { gatedReview, gatedSteps, gatedTask } from '../gates/index.js';
import type { GatedLineEvent } from '../lines/index.js';
import type { Platform } from '../platform/index.js';
import { route as routeQuery } from '../router/index.js';
import { isStoreUnavailable } from '../store/index.js';
import { AuthenticationError, Authenticator, type AuthSettings } from './auth/index.js';
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
  /** Roles that may read the tenant's whole audit, tasks and reviews, and decide nothing. */
  readonly auditorRoles?: readonly string[];
  readonly metrics?: ServerMetrics;
  readonly version: string;
  /** Picks the platform (config version) that serves a user's requests; default: `platform`. */
  readonly platformFor?: (identity: Identity) => Promise<VersionChoice>;
  /** Largest accepted request body. */
  readonly bodyLimit?: number;
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
  const isReviewer = (id: Identity) => id.roles.some((r) => reviewerRoles.has(r));
  const auditorRoles = new Set(options.auditorRoles ?? ['auditor']);
  const isAuditor = (id: Identity) => id.roles.some((r) => auditorRoles.has(r));
  /** Reviewers and auditors read the whole tenant's records; everyone else only their own. */
  const readsTenant = (id: Identity) => isReviewer(id) || isAuditor(id);
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
  app.get('/metrics', async (_req, reply) => {
    if (!options.metrics) throw new NotFoundError('metrics');
    reply.header('content-type', options.metrics.registry.contentType);
    return options.metrics.registry.metrics();
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
          ...(body.sessionId ? { sessionId: body.sessionId } : {}),
          waitForDeep: body.wait === true,
        });
        options.metrics?.requests.inc({ target: result.route.target, outcome: result.outcome });
        return reply.code(result.outcome === 'queued' ? 202 : 200).send({ ...result, ...served });
      }
      return streamRequest(reply, choice.platform, identity, body, options.metrics);
    });

    v1.post('/v1/route', async (req) => {
      const body = parseInput(routeBody, req.body, 'body');
      const decision = routeQuery(body.query);
      const id = who(req);
      platform.routing.add({
        time: new Date().toISOString(),
        tenant: id.tenant,
        user: id.user,
        query: body.query.slice(0, 200),
        target: decision.target,
        scores: decision.scores,
        rule: decision.rule,
      });
      return decision;
    });

    v1.get('/v1/routing', async (req) => {
      const q = parseInput(listQuery, req.query, 'query');
      const gate = gateFor(req, 'routing');
      return {
        decisions: platform.routing.recent(who(req).tenant, q.limit).map((d) => ({
          ...d,
          query: gate.value(d.query),
        })),
      };
    });

    v1.get('/v1/tasks', async (req) => {
      const q = parseInput(listQuery, req.query, 'query');
      const id = who(req);
      const tasks = await platform.store.forTenant(id.tenant).tasks.listTasks({ limit: q.limit });
      return {
        tasks: tasks
          .filter((t) => readsTenant(id) || t.user === id.user)
          .map((t) => gatedTask(gateFor(req, t.id), taskView(t))),
      };
    });

    v1.get('/v1/tasks/:id', async (req) => {
      const { id: taskId } = parseInput(idParam, req.params, 'path');
      const id = who(req);
      const tasks = platform.store.forTenant(id.tenant).tasks;
      const task = await tasks.getTask(taskId);
      if (!task || (!readsTenant(id) && task.user !== id.user)) throw new NotFoundError(`task ${taskId}`);
      const steps = await tasks.getSteps(taskId);
      const state = (task.plan ?? {}) as {
        final?: string;
        plan?: { goal?: string; capabilities?: string[] };
      };
      const gate = gateFor(req, task.id);
      return {
        task: gatedTask(gate, taskView(task)),
        steps: gatedSteps(gate, steps),
        ...(state.plan
          ? { plan: { goal: gate.value(state.plan.goal), capabilities: state.plan.capabilities } }
          : {}),
        ...(state.final !== undefined ? { result: gate.text(state.final) } : {}),
      };
    });

    v1.post('/v1/tasks/:id/cancel', async (req) => {
      const { id: taskId } = parseInput(idParam, req.params, 'path');
      const id = who(req);
      const task = await platform.store.forTenant(id.tenant).tasks.getTask(taskId);
      if (!task || (!isReviewer(id) && task.user !== id.user)) throw new NotFoundError(`task ${taskId}`);
      const cancelled = await platform.cancelTask(id.tenant, taskId);
      return { id: taskId, cancelled };
    });

    v1.get('/v1/reviews', async (req) => {
      const q = parseInput(reviewsQuery, req.query, 'query');
      const id = who(req);
      const tenant = platform.store.forTenant(id.tenant);
      const items = await tenant.reviews.list({ ...(q.status ? { status: q.status } : {}), limit: q.limit });
      const visible = items.filter((r) => readsTenant(id) || r.user === id.user);
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

    v1.get('/v1/breakers', async () => ({ breakers: platform.breakers.snapshot() }));
  });

  return app;
}

async function streamRequest(
  reply: FastifyReply,
  platform: Platform,
  identity: Identity,
  body: { query: string; sessionId?: string | undefined },
  metrics: ServerMetrics | undefined,
): Promise<void> {
  const ac = new AbortController();
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
      ...(body.sessionId ? { sessionId: body.sessionId } : {}),
      channel: 'sse',
      emit: (e: GatedLineEvent) =>
        send(
          // The agent's own `result` is one step of the request; the request's result comes last.
          e.type === 'agent' ? (e.event.type === 'result' ? 'agent_result' : e.event.type) : e.type,
          e.type === 'agent' ? e.event : e,
        ),
      signal: ac.signal,
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
