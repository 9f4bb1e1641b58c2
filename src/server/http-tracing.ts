import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { SpanPort, TracerPort } from '../core/index.js';

/** Routes that serve people and pipelines; health probes, metrics scrapes and static files are left out. */
function traced(url: string | undefined): boolean {
  return url?.startsWith('/v1/') === true && url !== '/v1/health';
}

/**
 * The ingress span of every API request (docs/operations.md, "Traces"): an HTTP server span that
 * joins the caller's trace (`traceparent`), inside which the route's handler runs, so the
 * request's input gate, route, line, model and tool spans are its children. Ends when the
 * response closes, streamed (SSE) or not. Call before any route is registered.
 */
export function traceRoutes(app: FastifyInstance, tracer: TracerPort): void {
  const spans = new WeakMap<FastifyRequest, SpanPort>();
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const route = req.routeOptions.url;
    if (!traced(route)) return;
    const span = tracer.start(`${req.method} ${route}`, {
      kind: 'server',
      carrier: req.headers,
      attributes: { 'http.request.method': req.method, 'http.route': route, 'url.scheme': 'http' },
    });
    spans.set(req, span);
    reply.raw.once('close', () => {
      const status = reply.raw.statusCode;
      span.set({ 'http.response.status_code': status });
      if (status >= 500) span.fail(String(status));
      span.end();
    });
  });
  app.addHook('onRoute', (options) => {
    if (!traced(options.url)) return;
    const handler = options.handler as RouteHandlerMethod;
    options.handler = function tracedHandler(this: FastifyInstance, req, reply) {
      const span = spans.get(req);
      if (!span) return handler.call(this, req, reply);
      if (req.identity) span.set({ 'twinline.tenant': req.identity.tenant });
      return span.within(() => handler.call(this, req, reply));
    };
  });
}
