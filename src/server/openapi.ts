import { z } from 'zod';
import {
  auditQuery,
  auditRecord,
  errorBody,
  listQuery,
  requestBody,
  requestResult,
  reviewDecisionBody,
  reviewDenyBody,
  reviewItem,
  reviewsQuery,
  routeBody,
  taskStep,
  taskSummary,
} from './schemas.js';

interface RouteDoc {
  readonly method: 'get' | 'post';
  readonly path: string;
  readonly summary: string;
  readonly body?: z.ZodType;
  readonly query?: z.ZodObject;
  readonly response?: z.ZodType;
  readonly status?: string;
  readonly public?: boolean;
}

const routeDecision = z.object({
  target: z.enum(['deep', 'quick', 'readonly_fallback']),
  scores: z.object({ deep: z.number(), quick: z.number() }),
  rule: z.string().nullable(),
});

/** Every route, documented from the same zod schemas the handlers validate with. */
const ROUTES: readonly RouteDoc[] = [
  {
    method: 'post',
    path: '/v1/requests',
    summary: 'Route and run a request (stream=true: server-sent events)',
    body: requestBody,
    response: requestResult,
  },
  {
    method: 'post',
    path: '/v1/route',
    summary: 'Routing decision for a request, without running it',
    body: routeBody,
    response: routeDecision,
  },
  { method: 'get', path: '/v1/routing', summary: 'Recent routing decisions of the tenant', query: listQuery },
  {
    method: 'get',
    path: '/v1/tasks',
    summary: 'Deep-line tasks',
    query: listQuery,
    response: z.object({ tasks: z.array(taskSummary) }),
  },
  {
    method: 'get',
    path: '/v1/tasks/{id}',
    summary: 'A task and its steps (live)',
    response: z.object({ task: taskSummary, steps: z.array(taskStep) }),
  },
  {
    method: 'post',
    path: '/v1/tasks/{id}/cancel',
    summary: 'Cancel a task',
    response: z.object({ id: z.string(), cancelled: z.boolean() }),
  },
  {
    method: 'get',
    path: '/v1/reviews',
    summary: 'Review queue of the tenant',
    query: reviewsQuery,
    response: z.object({ reviews: z.array(reviewItem) }),
  },
  {
    method: 'post',
    path: '/v1/reviews/{id}/approve',
    summary: 'Approve a review; the call runs exactly once',
    body: reviewDecisionBody,
  },
  {
    method: 'post',
    path: '/v1/reviews/{id}/deny',
    summary: 'Deny a review (a note saying why is required)',
    body: reviewDenyBody,
  },
  {
    method: 'get',
    path: '/v1/audit',
    summary: 'Audit records of the tenant',
    query: auditQuery,
    response: z.object({ records: z.array(auditRecord) }),
  },
  {
    method: 'get',
    path: '/v1/audit/export',
    summary: 'The filtered audit records as a CSV or JSON file (format=csv|json)',
    query: auditQuery,
  },
  { method: 'get', path: '/v1/audit/{id}', summary: 'One audit record' },
  {
    method: 'get',
    path: '/v1/audit/{id}/explain',
    summary: 'Why a record was decided as it was: its decision path, decided again, and the profile slots',
  },
  {
    method: 'get',
    path: '/v1/overview',
    summary: 'Decisions over time, top denying rules, latency per line, queue depth, breaker states',
  },
  {
    method: 'get',
    path: '/v1/tasks/{id}/events',
    summary: 'A task’s live step timeline (server-sent events)',
  },
  {
    method: 'get',
    path: '/v1/tasks/{id}/steps/{stepNo}/raw',
    summary: 'A step’s raw output, redacted for the caller’s data level',
  },
  { method: 'get', path: '/v1/breakers', summary: "Circuit breaker states of the caller's tenant" },
  { method: 'get', path: '/v1/whoami', summary: 'The authenticated identity' },
  { method: 'get', path: '/v1/health', summary: 'Liveness and store reachability', public: true },
  // A metrics key (the operator's, auth.yaml `metrics.keys`) — no tenant credential opens it.
  { method: 'get', path: '/metrics', summary: 'Prometheus metrics (metrics key only)' },
];

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

/** The OpenAPI 3.1 document of the HTTP API. */
export function buildOpenApi(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    const op: Record<string, unknown> = {
      summary: r.summary,
      ...(r.public ? { security: [] } : {}),
      responses: {
        [r.status ?? '200']: {
          description: 'OK',
          ...(r.response ? { content: { 'application/json': { schema: json(r.response) } } } : {}),
        },
        '400': {
          description: 'Bad input (names the field)',
          content: { 'application/json': { schema: json(errorBody) } },
        },
        '401': {
          description: 'Missing or invalid credential',
          content: { 'application/json': { schema: json(errorBody) } },
        },
        '503': {
          description: 'Database unavailable (restarting or unreachable); retry after `Retry-After` seconds',
          headers: { 'Retry-After': { schema: { type: 'integer' } } },
          content: { 'application/json': { schema: json(errorBody) } },
        },
      },
    };
    const params: unknown[] = [];
    for (const m of r.path.matchAll(/\{(\w+)\}/g))
      params.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
    if (r.query) {
      for (const [name, s] of Object.entries(r.query.shape)) {
        params.push({ name, in: 'query', required: false, schema: json(s as z.ZodType) });
      }
    }
    if (params.length) op.parameters = params;
    if (r.body)
      op.requestBody = { required: true, content: { 'application/json': { schema: json(r.body) } } };
    paths[r.path] = { ...(paths[r.path] ?? {}), [r.method]: op };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Twinline gateway API', version },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API key or JWT' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      },
    },
    security: [{ bearer: [] }, { apiKey: [] }],
    paths,
  };
}
