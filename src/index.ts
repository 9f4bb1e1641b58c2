/**
 * Twinline's library surface. The spine (core vocabulary, tool manifests and registry, the
 * gateway, the store, config and runtime, the assembled platform) is exported at the top level;
 * each layer is also available as a namespace (`access`, `policy`, `gates`, `router`, `lines`,
 * `agent`, `resilience`, `context`, `review`). The HTTP server is `twinline/server` and the
 * host-side client is `twinline/sdk`, so importing `twinline` never loads either.
 */

export * as access from './access/index.js';
export * as agent from './agent/index.js';
export * from './config/index.js';
export * as context from './context/index.js';
export * from './core/index.js';
export * as gates from './gates/index.js';
export * from './gateway/index.js';
export * as lines from './lines/index.js';
export * from './platform/index.js';
export * as policy from './policy/index.js';
export * as resilience from './resilience/index.js';
export * as review from './review/index.js';
export * as router from './router/index.js';
export * from './runtime/index.js';
export * from './store/index.js';
export * from './tools/index.js';
