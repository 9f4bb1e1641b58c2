import type { StageDecision } from './decision.js';
import type { CallContext, ToolCall } from './stage-contract.js';
import type { ToolSpec } from './tool-manifest.js';

// The ports through which the request path is observed (docs/operations.md, "Traces"). They are
// interfaces only: src/telemetry implements them with OpenTelemetry and Prometheus, the pipeline
// hands them to the gateways it builds, and a part that is given none pays nothing.

/** A span attribute: never raw arguments or model text, only ids, names, verdicts and counts. */
export type SpanAttributeValue = string | number | boolean | readonly string[];
export type SpanAttributes = Readonly<Record<string, SpanAttributeValue | undefined>>;

/** Where a span stands in a call between processes (the OpenTelemetry span kinds). */
export type SpanKindName = 'internal' | 'server' | 'client';

/** One open span. Ending it twice is harmless. */
export interface SpanPort {
  set(attributes: SpanAttributes): void;
  /** Marks the span failed: `error.type` and an error status, with an optional short message. */
  fail(errorType: string, message?: string): void;
  /** A child span that starts now. */
  child(name: string, attributes?: SpanAttributes, kind?: SpanKindName): SpanPort;
  /** Runs `fn` with this span as the parent of the spans started inside it and what it awaits. */
  within<T>(fn: () => T): T;
  end(): void;
}

export interface SpanStart {
  readonly attributes?: SpanAttributes;
  readonly kind?: SpanKindName;
  /** Incoming headers (`traceparent`, `tracestate`): the span joins the caller's trace. */
  readonly carrier?: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * Runs `fn` inside `span` and ends the span when it settles: `describe` adds what the result
 * says, a rejection marks the span failed with the error's class name (never its message, which
 * can quote data).
 */
export async function runInSpan<T>(
  span: SpanPort,
  fn: () => Promise<T>,
  describe?: (result: T) => SpanAttributes,
): Promise<T> {
  try {
    const result = await span.within(fn);
    if (describe) span.set(describe(result));
    return result;
  } catch (err) {
    span.fail('exception', err instanceof Error ? err.name : undefined);
    throw err;
  } finally {
    span.end();
  }
}

/** Starts spans under whichever span is active where it is called. */
export interface TracerPort {
  start(name: string, options?: SpanStart): SpanPort;
}

/** What the gateway reports about the end of one call. */
export interface ObservedCallEnd {
  readonly status: string;
  /** The deciding verdict (the first non-allow, or the last allow when executed). */
  readonly decision: StageDecision;
  readonly path: readonly StageDecision[];
  readonly durationMs: number;
}

/** One stage (pre-execution or result transform) as it runs. */
export interface StageObservation {
  /** `decision` is absent for a result transform, which decides nothing. */
  end(decision?: StageDecision): void;
}

/** One attempted call, from lookup to its audit record. */
export interface CallObservation {
  stage(name: string): StageObservation;
  /** Runs the tool's execution (`run`) inside the observation; resolves with what `run` does. */
  execute<T extends { readonly status: string }>(tool: string, run: () => Promise<T>): Promise<T>;
  end(outcome: ObservedCallEnd): void;
}

/**
 * The gateway's telemetry port: called once per attempted call. The gateway knows nothing of what
 * is behind it (spans, counters); without one it does no extra work at all.
 */
export interface GatewayObserver {
  call(call: ToolCall, ctx: CallContext, tool: ToolSpec | undefined): CallObservation;
}
