/** Telemetry: structured logs (pino); see docs/server.md, "Logs". */

export { TelemetryError } from './errors.js';
export { combineObservers, metricsObserver, spanObserver } from './gateway-observers.js';
export {
  type CreateLoggerOptions,
  createLogger,
  LOG_LEVELS,
  type LogLevel,
  logLevelFrom,
  REDACTED_FIELDS,
  silentLogger,
  type TwinlineLogger,
} from './logger.js';
export type { ModelTurnMetrics, TelemetryMetrics } from './metrics-port.js';
export { type ModelObservers, type ObservableProvider, observeProvider } from './model-observer.js';
export { Telemetry } from './telemetry.js';
export { TRACING_ENV, type Tracing, tracingExporters, tracingFromEnv, tracingWith } from './tracing-env.js';
