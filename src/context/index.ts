/**
 * Context between lines: the summary-only context bus (in-process, or NATS when
 * `TWINLINE_NATS_URL` is set) and the memory partitions (working memory, user preferences,
 * documents).
 */
export {
  type ContextBus,
  type ContextEventFilter,
  type ContextEventHandler,
  type ContextSubscription,
  type HandlerErrorSink,
  matchesFilter,
} from './bus.js';
export { ContextBusError, ContextEventRejectedError, PreferenceRejectedError } from './errors.js';
export {
  CONTEXT_LINES,
  type ContextEvent,
  ContextEventSchema,
  type ContextLine,
  MAX_REFS,
  MAX_SUMMARY_CHARS,
  makeContextEvent,
  validateContextEvent,
} from './event.js';
export { InProcessContextBus } from './in-process-bus.js';
export * from './memory/index.js';
export {
  CONTEXT_SUBJECT_PREFIX,
  contextSubject,
  type NatsContextBus,
  type NatsContextBusOptions,
} from './nats-bus.js';
export { openContextBus } from './open-bus.js';
export { findPersonalData, looksLikeSerializedRecord } from './pii-check.js';
