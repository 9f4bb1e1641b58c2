export { buildMetricsServer, buildServer, type ServerOptions } from './app.js';
export * from './auth/index.js';
export { type LoadedAuth, loadAuthFile } from './auth-file.js';
export { BadRequestError, ForbiddenError, NotFoundError } from './errors.js';
export { ServerMetrics } from './metrics.js';
export { buildOpenApi } from './openapi.js';
export { type RunningServer, type ServeOptions, startServer } from './serve.js';
export { type VersionChoice, VersionRouter } from './version-router.js';
