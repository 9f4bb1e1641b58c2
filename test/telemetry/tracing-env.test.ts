import { describe, expect, it } from 'vitest';
import { TelemetryError, tracingExporters, tracingFromEnv } from '../../src/telemetry/index.js';

// Tracing is configured only by the standard OTEL_* variables, is off unless they turn it on,
// and refuses settings it cannot honour instead of silently not exporting.

describe('tracing from OTEL_* variables', () => {
  it.each([
    [{}, []],
    [{ OTEL_TRACES_EXPORTER: 'none' }, []],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' }, []],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_EXPORTER: 'none' }, []],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }, ['otlp']],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' }, ['otlp']],
    [{ OTEL_TRACES_EXPORTER: 'otlp,console' }, ['otlp', 'console']],
  ])('%j → exporters %j', (env, expected) => {
    expect(tracingExporters(env)).toEqual(expected);
  });

  it('off by default: nothing is set up', async () => {
    expect(await tracingFromEnv({})).toBeUndefined();
    expect(await tracingFromEnv({ OTEL_SDK_DISABLED: 'TRUE', OTEL_TRACES_EXPORTER: 'otlp' })).toBeUndefined();
  });

  it('on: a tracer that starts spans, and stops cleanly', async () => {
    const t = await tracingFromEnv({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
    });
    expect(t).toBeDefined();
    const span = t!.tracer.start('probe');
    span.set({ 'twinline.tenant': 'acme' });
    span.end();
    await t!.shutdown().catch(() => {});
  });

  it.each([
    [{ OTEL_TRACES_EXPORTER: 'zipkin' }, 'telemetry.unknown-exporter', 'OTEL_TRACES_EXPORTER'],
    [
      { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      'telemetry.unsupported-protocol',
      'OTEL_EXPORTER_OTLP_PROTOCOL',
    ],
    [
      { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' },
      'telemetry.unsupported-protocol',
      'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
    ],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' }, 'telemetry.bad-endpoint', 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    [
      { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TIMEOUT: '-5' },
      'telemetry.bad-timeout',
      'OTEL_EXPORTER_OTLP_TIMEOUT',
    ],
    [
      { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_HEADERS: 'novalue' },
      'telemetry.bad-list',
      'OTEL_EXPORTER_OTLP_HEADERS',
    ],
    [
      { OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'sometimes' },
      'telemetry.unknown-sampler',
      'OTEL_TRACES_SAMPLER',
    ],
    [
      { OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' },
      'telemetry.bad-sampler-arg',
      'OTEL_TRACES_SAMPLER_ARG',
    ],
    [
      { OTEL_TRACES_EXPORTER: 'otlp', OTEL_RESOURCE_ATTRIBUTES: 'a=%zz' },
      'telemetry.bad-list',
      'OTEL_RESOURCE_ATTRIBUTES',
    ],
  ])('%j is refused (%s, naming %s)', async (env, code, where) => {
    const err = await tracingFromEnv(env).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TelemetryError);
    expect((err as TelemetryError).code).toBe(code);
    expect((err as TelemetryError).where).toBe(where);
  });
});
