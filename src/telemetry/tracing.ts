import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type Attributes,
  type Context,
  defaultTextMapGetter,
  context as otelContext,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { SpanAttributes, SpanKindName, SpanPort, SpanStart, TracerPort } from '../core/index.js';

const KINDS: Readonly<Record<SpanKindName, SpanKind>> = {
  internal: SpanKind.INTERNAL,
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
};

const propagator = new W3CTraceContextPropagator();

function attributes(a: SpanAttributes | undefined): Attributes | undefined {
  if (!a) return undefined;
  const out: Attributes = {};
  for (const key in a) {
    const v = a[key];
    if (v !== undefined) out[key] = v as Attributes[string];
  }
  return out;
}

/**
 * The tracer port on OpenTelemetry (docs/operations.md, "Traces"). The span a part runs inside is
 * kept in this tracer's own async context, so two tracers in one process (two servers in a test)
 * never mix their spans; where none is active, a span joins the OpenTelemetry context a host
 * application set up (its HTTP instrumentation, say), and an ingress span joins the caller's trace
 * through the W3C `traceparent` header.
 */
export class OtelTracer implements TracerPort {
  readonly #tracer: Tracer;
  readonly #active = new AsyncLocalStorage<Context>();

  constructor(tracer: Tracer) {
    this.#tracer = tracer;
  }

  start(name: string, options: SpanStart = {}): SpanPort {
    const parent = options.carrier
      ? propagator.extract(ROOT_CONTEXT, options.carrier, defaultTextMapGetter)
      : (this.#active.getStore() ?? otelContext.active());
    return this.startIn(parent, name, options.attributes, options.kind);
  }

  /** A span under `parent` (a span's own context); used by spans for their children. */
  startIn(parent: Context, name: string, a?: SpanAttributes, kind: SpanKindName = 'internal'): SpanPort {
    const span = this.#tracer.startSpan(name, { kind: KINDS[kind], attributes: attributes(a) ?? {} }, parent);
    return new OtelSpan(this, span, trace.setSpan(parent, span));
  }

  /** Runs `fn` with `ctx` as the active context of this tracer. */
  runIn<T>(ctx: Context, fn: () => T): T {
    return this.#active.run(ctx, fn);
  }
}

class OtelSpan implements SpanPort {
  #ended = false;

  constructor(
    private readonly tracer: OtelTracer,
    private readonly span: Span,
    private readonly ctx: Context,
  ) {}

  set(a: SpanAttributes): void {
    const clean = attributes(a);
    if (clean) this.span.setAttributes(clean);
  }

  fail(errorType: string, message?: string): void {
    this.span.setAttribute('error.type', errorType);
    this.span.setStatus({
      code: SpanStatusCode.ERROR,
      ...(message ? { message: message.slice(0, 200) } : {}),
    });
  }

  child(name: string, a?: SpanAttributes, kind?: SpanKindName): SpanPort {
    return this.tracer.startIn(this.ctx, name, a, kind);
  }

  within<T>(fn: () => T): T {
    return this.tracer.runIn(this.ctx, fn);
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.span.end();
  }
}
