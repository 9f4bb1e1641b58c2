import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { TracerPort } from '../core/index.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** A running tracer and what it takes to stop it. */
export interface Tracing {
  readonly tracer: TracerPort;
  /** Sends every span ended so far. */
  forceFlush(): Promise<void>;
  /** Sends what is left and stops exporting. */
  shutdown(): Promise<void>;
}

/** The variables `tracingFromEnv` reads (docs/operations.md, "Traces"). */
export const TRACING_ENV = [
  'OTEL_SDK_DISABLED',
  'OTEL_TRACES_EXPORTER',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  'OTEL_EXPORTER_OTLP_TIMEOUT',
  'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT',
  'OTEL_SERVICE_NAME',
  'OTEL_RESOURCE_ATTRIBUTES',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
] as const;

/**
 * The exporters the environment asks for; empty when tracing is off — the default: nothing set,
 * `OTEL_SDK_DISABLED=true`, or `OTEL_TRACES_EXPORTER=none`. An OTLP endpoint alone means `otlp`.
 */
export function tracingExporters(env: Env): string[] {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return [];
  const named = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const exporters = named.length > 0 ? named : endpoint ? ['otlp'] : [];
  return exporters.includes('none') ? [] : exporters;
}

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
