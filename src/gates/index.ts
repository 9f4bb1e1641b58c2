/**
 * Content safety gates: the input gate (injection scanning before routing), third-party text
 * quoting (`result.quote`), the output gate (`result.redact`, PII, outbound classifier), session
 * watermarks, and the egress gate every outgoing text passes. Pure: no I/O.
 */
export * from './egress/index.js';
export * from './input/index.js';
export * from './output/index.js';
export * from './quote/index.js';
export * from './watermark/index.js';
