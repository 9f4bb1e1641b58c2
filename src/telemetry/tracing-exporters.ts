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
