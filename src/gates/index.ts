/**
 * Content safety gates: the input gate (injection scanning before routing), third-party text
 * quoting (`result.quote`), the output gate (`result.redact`, PII, outbound classifier) and
 * session watermarks. Pure: no I/O.
 */
export * from './input/index.js';
export * from './output/index.js';
export * from './quote/index.js';
export * from './watermark/index.js';
