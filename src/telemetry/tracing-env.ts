import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { type Env, type Tracing, tracingExporters } from './tracing-exporters.js';

export { type Env, TRACING_ENV, type Tracing, tracingExporters } from './tracing-exporters.js';

/**
 * Tracing as the standard `OTEL_*` variables configure it (docs/operations.md, "Traces"), or
 * undefined when they leave it off. On with `OTEL_TRACES_EXPORTER=otlp` (OTLP over HTTP with
 * protobuf, to `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, else `OTEL_EXPORTER_OTLP_ENDPOINT` +
 * `/v1/traces`, else localhost:4318) or `console`, or when only an OTLP endpoint is given. A value
 * that cannot mean what it says (gRPC, an unknown exporter or sampler) is a typed error. The SDK
 * is loaded only when tracing is on: off, it costs one look at the environment.
 */
export async function tracingFromEnv(
  env: Env,
  service: { version?: string } = {},
): Promise<Tracing | undefined> {
  if (tracingExporters(env).length === 0) return undefined;
  const { tracingFromEnvNow } = await import('./tracing-setup.js');
  return tracingFromEnvNow(env, service);
}

/** Tracing into the given span processors (tests: an in-memory exporter). */
export async function tracingWith(
  processors: readonly SpanProcessor[],
  options?: { attributes?: Record<string, string> },
): Promise<Tracing> {
  const setup = await import('./tracing-setup.js');
  return setup.tracingWith(processors, options);
}
