import { randomUUID } from 'node:crypto';
import { type Identity, runInSpan, type TracerPort } from '../core/index.js';
import type { Egress } from '../gates/index.js';
import {
  type GatedRequestResult,
  gateRequestResult,
  type LineDispatcher,
  LineEventEgress,
} from '../lines/index.js';
import type { Telemetry, TwinlineLogger } from '../telemetry/index.js';
import { requestLogLine } from './log-lines.js';
import type { PlatformRequestOptions } from './platform-types.js';

/** A part of the request path in its own span (when tracing), ended with what `describe` reads. */
export type InSpan = <T>(name: string, fn: () => T, describe: (r: T) => Record<string, string | number>) => T;

/** `InSpan` over a tracer; without one the part just runs. */
export function spanned(tracer: TracerPort | undefined): InSpan {
  return (name, fn, describe) => {
    if (!tracer) return fn();
    const span = tracer.start(name);
    try {
      const r = fn();
      span.set(describe(r));
      return r;
    } finally {
      span.end();
    }
  };
}

/**
 * `Platform.handle`: routes and runs one request for a trusted identity, and sends out only what
 * passed the egress gate for that identity (the answer, and each event handed to `emit`), in a
 * request span and with a log line when those are on.
 */
export function requestDoor(deps: {
  readonly dispatcher: LineDispatcher;
  readonly egress: Egress;
  readonly logger?: TwinlineLogger | undefined;
  readonly telemetry?: Telemetry | undefined;
}): (identity: Identity, query: string, options?: PlatformRequestOptions) => Promise<GatedRequestResult> {
  const { dispatcher, egress, logger, telemetry } = deps;
  const tracer = telemetry?.tracer;
  const inSpan = spanned(tracer);
  return async (identity, query, opts = {}) => {
    const started = logger ? performance.now() : 0;
    const { channel = 'api', emit, ...rest } = opts;
    // The session is fixed here, not by the dispatcher: streamed text is marked with it.
    const sessionId = rest.sessionId ?? randomUUID();
    const gate = egress.for({ viewer: identity, sessionId, channel });
    const events = emit ? new LineEventEgress(gate, emit) : undefined;
    const run = async () => {
      const result = await dispatcher.handle(identity, query, {
        ...rest,
        sessionId,
        ...(rest.provider && telemetry ? { provider: telemetry.provider(rest.provider) } : {}),
        ...(events ? { emit: (e) => events.accept(e) } : {}),
      });
      events?.end();
      if (logger?.isLevelEnabled('info'))
        logger.info(requestLogLine(identity, channel, result, started), 'request');
      return inSpan(
        'twinline.output_gate',
        () => gateRequestResult(gate, result),
        (g) => ({ 'twinline.output.verdict': g.outputGate.verdict, 'twinline.channel': channel }),
      );
    };
    if (!tracer) return run();
    const span = tracer.start('twinline.request', {
      attributes: {
        'twinline.tenant': identity.tenant,
        'twinline.channel': channel,
        'gen_ai.conversation.id': sessionId,
      },
    });
    return runInSpan(span, run, (result) => ({
      'twinline.request.id': result.requestId,
      'twinline.route.target': result.route.target,
      'twinline.outcome': result.outcome,
    }));
  };
}
