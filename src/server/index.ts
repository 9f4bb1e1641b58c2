export { buildMetricsServer, buildServer, registeredRoutes, type ServerOptions } from './app.js';
export * from './auth/index.js';
export { type LoadedAuth, loadAuthFile } from './auth-file.js';
export { BadRequestError, ForbiddenError, NotFoundError } from './errors.js';
export { ServerMetrics } from './metrics.js';
export { buildOpenApi } from './openapi.js';
export { ROUTE_EGRESS } from './route-egress.js';
export { type RunningServer, type ServeOptions, startServer } from './serve.js';
export { type VersionChoice, VersionRouter } from './version-router.js';
