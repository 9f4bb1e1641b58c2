/**
 * Twinline's library surface. Import the pieces you compose: the tool registry and gateway, the
 * store, the access and policy layers, the gates, the agent runtime.
 */

export * from './config/index.js';
export * from './core/index.js';
export * from './gateway/index.js';
export * from './runtime/index.js';
export * from './store/index.js';
export * from './tools/index.js';
