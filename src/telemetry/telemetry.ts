import type { GatewayObserver, TracerPort } from '../core/index.js';
import { combineObservers, metricsObserver, spanObserver } from './gateway-observers.js';
import type { TelemetryMetrics } from './metrics-port.js';
import { type ObservableProvider, observeProvider } from './model-observer.js';

/**
 * What observes one process's request path (docs/operations.md): a tracer when tracing is on, the
 * metrics when a server keeps them. Either may be absent; with neither, every part it is handed to
 * runs exactly as it would without it.
 */
export class Telemetry {
  readonly tracer: TracerPort | undefined;
  readonly metrics: TelemetryMetrics | undefined;
  /** For the pipeline's gateways: spans first, so the execution span is active for the metrics too. */
  readonly gatewayObserver: GatewayObserver | undefined;

  constructor(options: { tracer?: TracerPort | undefined; metrics?: TelemetryMetrics | undefined } = {}) {
    this.tracer = options.tracer;
    this.metrics = options.metrics;
    this.gatewayObserver = combineObservers(
      this.tracer ? spanObserver(this.tracer) : undefined,
      this.metrics ? metricsObserver(this.metrics) : undefined,
    );
  }

  /** `provider` with its turns traced and measured (itself when nothing observes). */
  provider<P extends ObservableProvider>(provider: P): P {
    return observeProvider(provider, this);
  }
}
