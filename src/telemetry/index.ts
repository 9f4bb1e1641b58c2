export { TelemetryError } from './errors.js';
export { combineObservers, metricsObserver, spanObserver } from './gateway-observers.js';
export type { ModelTurnMetrics, TelemetryMetrics } from './metrics-port.js';
export { type ModelObservers, type ObservableProvider, observeProvider } from './model-observer.js';
export { Telemetry } from './telemetry.js';
export { TRACING_ENV, type Tracing, tracingExporters, tracingFromEnv, tracingWith } from './tracing-env.js';
