/**
 * `twinline/server`: the HTTP API as a library (docs/server.md). Every name here is listed in
 * docs/api.md, and `test/package/public-surface.test.ts` holds the built package to that list.
 */
export { buildMetricsServer, buildServer, type ServerOptions } from './app.js';
export { ApiKeyDirectory, type ApiKeyEntry, AuthenticationError, hashApiKey } from './auth/index.js';
export { type LoadedAuth, loadAuthFile } from './auth-file.js';
export { BadRequestError, ForbiddenError, NotFoundError } from './errors.js';
export { ServerMetrics } from './metrics.js';
export { buildOpenApi } from './openapi.js';
export { type RunningServer, type ServeOptions, startServer } from './serve.js';
