import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

// Node built-ins the workspace tools need only once a tool runs. Importing them at the top would
// load them (and `net`, `dgram` behind `child_process`) into every session before its first turn,
// a few milliseconds each on a small machine (docs/startup.md). `require` caches, so later calls are free.

/** `node:child_process`, loaded on first use. */
export const childProcess = (): typeof import('node:child_process') => require('node:child_process');

/** `node:worker_threads`, loaded on first use. */
export const workerThreads = (): typeof import('node:worker_threads') => require('node:worker_threads');

/** `node:net`, loaded on first use. */
export const net = (): typeof import('node:net') => require('node:net');

/** `node:dns/promises`, loaded on first use. */
export const dnsPromises = (): typeof import('node:dns/promises') => require('node:dns/promises');

/** `node:http`, loaded on first use (the sandbox's egress proxy). */
export const http = (): typeof import('node:http') => require('node:http');
