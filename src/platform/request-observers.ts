import type { InputGate } from '../gates/index.js';
import type { DeepLineDeps, DispatcherDeps, ReadonlyLine } from '../lines/index.js';
import type { ConfiguredRouter } from '../router/index.js';
import type { Telemetry, TwinlineLogger } from '../telemetry/index.js';
import { spanned } from './request-door.js';
import type { RoutingLog } from './routing-log.js';

/**
 * The dispatcher's routing and input scan, each in its own span when tracing, with what the
 * operator sees of them: the routing log, the input gate's metric, queue waits, and model-service
 * failures logged at `warn` with what the service said (docs/operations.md).
 */
export function observedRequestPath(deps: {
  readonly router: ConfiguredRouter;
  readonly inputGate: InputGate;
  readonly routing: RoutingLog;
  readonly now: () => Date;
  readonly logger?: TwinlineLogger | undefined;
  readonly telemetry?: Telemetry | undefined;
}): Pick<DispatcherDeps, 'route' | 'scanInput' | 'onRouted' | 'onModelFailure' | 'tracer' | 'onQueueWait'> {
  const { router, inputGate, routing, now, logger, telemetry } = deps;
  const inSpan = spanned(telemetry?.tracer);
  return {
    route: (q) =>
      inSpan(
        'twinline.route',
        () => router.route(q),
        (d) => ({ 'twinline.route.target': d.target, 'twinline.rule_id': d.rule ?? 'classifier' }),
      ),
    onModelFailure: ({ identity, requestId, line, failure }) =>
      logger?.warn(
        {
          requestId,
          tenant: identity.tenant,
          user: identity.user,
          line,
          failure: failure.failure,
          reason: failure.message,
          ...(failure.detail ? { detail: failure.detail } : {}),
        },
        'model service failed; answered on the degraded path',
      ),
    scanInput: (text) => {
      const { scan } = inSpan(
        'twinline.input_gate',
        () => inputGate.check(text, 'user_input'),
        ({ scan: s }) => ({
          'twinline.decision': s.verdict === 'pass' ? 'allow' : s.verdict === 'block' ? 'deny' : 'review',
          'twinline.rule_id': `input.${s.verdict}`,
          'twinline.input.score': s.score,
        }),
      );
      telemetry?.metrics?.inputGate(scan.verdict);
      return scan;
    },
    tracer: telemetry?.tracer,
    onQueueWait: (line, seconds) => telemetry?.metrics?.queueWait(line, seconds),
    onRouted: ({ identity, query, decision }) =>
      routing.add({
        time: now().toISOString(),
        tenant: identity.tenant,
        user: identity.user,
        query: query.slice(0, 200),
        target: decision.target,
        scores: decision.scores,
        rule: decision.rule,
        ...(decision.routing ? { routing: decision.routing } : {}),
      }),
  };
}

/**
 * The deep line's degraded path, for a plan the model service could not give: the read-only
 * line's answer and a ticket, logged at `warn` with what the service said.
 */
export function degradedDeepAnswer(
  readonly: ReadonlyLine,
  logger: TwinlineLogger | undefined,
): NonNullable<DeepLineDeps['degrade']> {
  return (identity, request, failure) => {
    logger?.warn(
      {
        tenant: identity.tenant,
        user: identity.user,
        line: 'deep',
        reason: failure.reason,
        detail: failure.detail,
      },
      'model service failed; answered on the degraded path',
    );
    return readonly.answer(identity, request, {
      sessionId: failure.sessionId,
      degradedReason: failure.reason,
      ...(failure.detail ? { degradedDetail: failure.detail } : {}),
    });
  };
}
