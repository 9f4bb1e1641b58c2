import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  type Sampler,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { TelemetryError } from './errors.js';
import { OtelTracer } from './tracing.js';
import { type Env, type Tracing, tracingExporters } from './tracing-exporters.js';

/** `tracingFromEnv` once the environment turned tracing on (see tracing-env.ts). */
export function tracingFromEnvNow(env: Env, service: { version?: string } = {}): Tracing | undefined {
  const exporters = tracingExporters(env);
  if (exporters.length === 0) return undefined;
  const processors: SpanProcessor[] = exporters.map((name) => {
    if (name === 'otlp') return new BatchSpanProcessor(otlpExporter(env));
    if (name === 'console') return new SimpleSpanProcessor(new ConsoleSpanExporter());
    throw new TelemetryError(
      'telemetry.unknown-exporter',
      `OTEL_TRACES_EXPORTER names ${JSON.stringify(name)}; Twinline exports traces with otlp, console or none`,
      { where: 'OTEL_TRACES_EXPORTER' },
    );
  });
  return tracingWith(processors, {
    sampler: samplerFromEnv(env),
    attributes: {
      'service.name': env.OTEL_SERVICE_NAME || 'twinline',
      ...(service.version ? { 'service.version': service.version } : {}),
      ...resourceAttributes(env.OTEL_RESOURCE_ATTRIBUTES),
    },
  });
}

/** Tracing into the given span processors (tests: an in-memory exporter). */
export function tracingWith(
  processors: readonly SpanProcessor[],
  options: { sampler?: Sampler; attributes?: Record<string, string> } = {},
): Tracing {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'twinline', ...options.attributes }),
    sampler: options.sampler ?? new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    spanProcessors: [...processors],
  });
  return {
    tracer: new OtelTracer(provider.getTracer('twinline')),
    forceFlush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

function otlpExporter(env: Env): SpanExporter {
  const protocol =
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf';
  if (protocol !== 'http/protobuf') {
    throw new TelemetryError(
      'telemetry.unsupported-protocol',
      `OTLP protocol ${JSON.stringify(protocol)} is not supported; Twinline sends http/protobuf (a collector accepts it on port 4318)`,
      {
        where: env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL
          ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
          : 'OTEL_EXPORTER_OTLP_PROTOCOL',
      },
    );
  }
  const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
    ? env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
    : `${(env.OTEL_EXPORTER_OTLP_ENDPOINT || 'http://localhost:4318').replace(/\/+$/, '')}/v1/traces`;
  try {
    new URL(url);
  } catch {
    throw new TelemetryError('telemetry.bad-endpoint', `OTLP endpoint ${JSON.stringify(url)} is not a URL`, {
      where: env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
        ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
        : 'OTEL_EXPORTER_OTLP_ENDPOINT',
    });
  }
  const timeout = env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT || env.OTEL_EXPORTER_OTLP_TIMEOUT;
  const timeoutMillis = timeout === undefined || timeout === '' ? undefined : Number(timeout);
  if (timeoutMillis !== undefined && !(Number.isInteger(timeoutMillis) && timeoutMillis > 0)) {
    throw new TelemetryError(
      'telemetry.bad-timeout',
      `OTLP timeout ${JSON.stringify(timeout)} is not a positive number of ms`,
      {
        where: 'OTEL_EXPORTER_OTLP_TIMEOUT',
      },
    );
  }
  return new OTLPTraceExporter({
    url,
    headers: {
      ...keyValues(env.OTEL_EXPORTER_OTLP_HEADERS, 'OTEL_EXPORTER_OTLP_HEADERS'),
      ...keyValues(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'),
    },
    ...(timeoutMillis !== undefined ? { timeoutMillis } : {}),
  });
}

function samplerFromEnv(env: Env): Sampler {
  const name = env.OTEL_TRACES_SAMPLER || 'parentbased_always_on';
  const arg = env.OTEL_TRACES_SAMPLER_ARG;
  const ratio = () => {
    const r = arg === undefined || arg === '' ? 1 : Number(arg);
    if (!(r >= 0 && r <= 1)) {
      throw new TelemetryError(
        'telemetry.bad-sampler-arg',
        `OTEL_TRACES_SAMPLER_ARG must be a ratio 0..1, got ${JSON.stringify(arg)}`,
        {
          where: 'OTEL_TRACES_SAMPLER_ARG',
        },
      );
    }
    return r;
  };
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio());
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio()) });
    default:
      throw new TelemetryError(
        'telemetry.unknown-sampler',
        `OTEL_TRACES_SAMPLER ${JSON.stringify(name)} is not a sampler Twinline knows`,
        {
          where: 'OTEL_TRACES_SAMPLER',
        },
      );
  }
}

/** `k=v,k2=v2` with percent-encoded values, as the OTEL_* header and resource variables write them. */
function keyValues(text: string | undefined, where: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (text ?? '').split(',')) {
    if (!part.trim()) continue;
    const eq = part.indexOf('=');
    if (eq <= 0)
      throw new TelemetryError('telemetry.bad-list', `${where}: ${JSON.stringify(part)} is not key=value`, {
        where,
      });
    try {
      out[decodeURIComponent(part.slice(0, eq).trim())] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      throw new TelemetryError(
        'telemetry.bad-list',
        `${where}: ${JSON.stringify(part)} is not percent-encoded`,
        { where },
      );
    }
  }
  return out;
}

function resourceAttributes(text: string | undefined): Record<string, string> {
  return keyValues(text, 'OTEL_RESOURCE_ATTRIBUTES');
}
