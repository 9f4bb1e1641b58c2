import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/index.js';
import { officeTempConfig } from '../support/office-temp.js';
import { RECENT } from '../support/recent-dates.js';

// A real OTLP/HTTP receiver on loopback, decoding what arrives with the official OpenTelemetry
// protocol definitions (test/fixtures/otlp-proto: opentelemetry-proto v1.9.0, Apache-2.0, as
// published): `twinline serve` configured only by the standard OTEL_* variables sends it the
// spans of a request. No collector build exists for Debian or npm, so the receiver is this one.

const PROTO_ROOT = resolve('test/fixtures/otlp-proto');

interface Decoded {
  resourceSpans: {
    resource?: { attributes: { key: string; value: { stringValue?: string } }[] };
    scopeSpans: {
      spans: {
        name: string;
        traceId: Buffer;
        attributes: { key: string; value: Record<string, unknown> }[];
      }[];
    }[];
  }[];
}

let receiver: Server;
let endpoint: string;
const requests: { path: string; type: string | undefined; header: string | undefined; body: Decoded }[] = [];
let Request: protobuf.Type;

beforeAll(async () => {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(PROTO_ROOT, target);
  await root.load('opentelemetry/proto/collector/trace/v1/trace_service.proto', { keepCase: false });
  Request = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
  const Response = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse');
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Request.toObject(Request.decode(Buffer.concat(chunks)), {
        longs: String,
        bytes: Buffer,
      }) as Decoded;
      requests.push({
        path: req.url ?? '',
        type: req.headers['content-type'],
        header: req.headers['x-tenant-token'] as string | undefined,
        body,
      });
      res.writeHead(200, { 'content-type': 'application/x-protobuf' });
      res.end(Buffer.from(Response.encode(Response.create({})).finish()));
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const address = receiver.address() as { port: number };
  endpoint = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await new Promise((r) => receiver?.close(r));
});

describe('OTLP export to a receiver on loopback', () => {
  it('serve sends protobuf spans of a request to OTEL_EXPORTER_OTLP_ENDPOINT with the configured headers and resource', async () => {
    const office = officeTempConfig();
    const file = join(office.dir, 'model.json');
    writeFileSync(
      file,
      JSON.stringify([
        { tool_calls: [{ name: 'calendar_list', arguments: { from: RECENT.from, to: RECENT.to } }] },
        { text: 'Three meetings.' },
      ]),
    );
    const server = await startServer({
      port: 0,
      config: office.configFile,
      model: `scripted:${file}`,
      env: {
        ...process.env,
        TWINLINE_DATABASE_URL: '',
        TWINLINE_REDIS_URL: '',
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant-token=abc%20123',
        OTEL_SERVICE_NAME: 'twinline-test',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=ci',
      },
      log: () => {},
    });
    try {
      const res = await fetch(`${server.url}/v1/requests`, {
        method: 'POST',
        headers: { authorization: 'Bearer tw-acme-alice-demo', 'content-type': 'application/json' },
        body: JSON.stringify({ query: '查一下这周的日程安排' }),
      });
      expect(res.status).toBe(200);
    } finally {
      // Closing the server shuts tracing down, which sends what is batched.
      await server.close();
      office.cleanup();
    }
    expect(requests.length).toBeGreaterThan(0);
    expect(requests[0]!.path).toBe('/v1/traces');
    expect(requests[0]!.type).toBe('application/x-protobuf');
    expect(requests[0]!.header).toBe('abc 123');
    const resource = requests[0]!.body.resourceSpans[0]!.resource!.attributes;
    const attr = (k: string) => resource.find((a) => a.key === k)?.value.stringValue;
    expect(attr('service.name')).toBe('twinline-test');
    expect(attr('deployment.environment')).toBe('ci');
    const spans = requests.flatMap((r) =>
      r.body.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans)),
    );
    const named = spans.map((s) => s.name);
    for (const n of [
      'POST /v1/requests',
      'twinline.request',
      'twinline.input_gate',
      'twinline.route',
      'invoke_agent quick',
      'execute_tool calendar_list',
      'twinline.stage policy',
      'twinline.execute calendar_list',
      'twinline.output_gate',
    ])
      expect(named).toContain(n);
    expect(named.filter((n) => n.startsWith('chat '))).toHaveLength(2);
    // One trace: every span of the request carries the ingress span's trace id.
    const ids = new Set(spans.map((s) => Buffer.from(s.traceId).toString('hex')));
    expect(ids.size).toBe(1);
    const tool = spans.find((s) => s.name === 'execute_tool calendar_list')!;
    expect(tool.attributes.find((a) => a.key === 'gen_ai.tool.name')?.value).toEqual({
      stringValue: 'calendar_list',
    });
  }, 30_000);
});
