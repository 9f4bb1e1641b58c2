import type { Identity } from '../core/index.js';
import type { RequestResult } from '../lines/index.js';
import type { AuditRecord, AuditSink } from '../store/index.js';
import type { TwinlineLogger } from '../telemetry/index.js';

/** A request's log line: who, where it went, how it ended, how long it took. Never its text. */
export function requestLogLine(identity: Identity, channel: string, r: RequestResult, started: number) {
  return {
    requestId: r.requestId,
    sessionId: r.sessionId,
    tenant: identity.tenant,
    user: identity.user,
    channel,
    route: r.route.target,
    rule: r.route.rule,
    ...(r.route.routing ? { routing: r.route.routing } : {}),
    outcome: r.outcome,
    executed: r.executed.length,
    denied: r.denied.length,
    ...(r.taskId ? { taskId: r.taskId } : {}),
    ...(r.ticketId ? { ticketId: r.ticketId } : {}),
    latencyMs: Math.round((performance.now() - started) * 10) / 10,
  };
}

/** A gateway decision's log line (the audit record without its hashes and summaries). */
export function decisionLogLine(rec: AuditRecord) {
  const deciding = rec.decisionPath.at(-1);
  return {
    sessionId: rec.sessionId,
    tenant: rec.tenant,
    user: rec.user,
    line: rec.domain,
    agent: rec.agent,
    tool: rec.tool,
    decision: rec.status,
    ...(deciding ? { stage: deciding.stage, rule: deciding.ruleId } : {}),
    latencyMs: rec.durationMs,
  };
}

/**
 * The store's audit, with `onAudit` (metrics) and the decision log line (at `debug`) seeing each
 * record first; the store's own sink when neither is asked for.
 */
export function observedAudit(
  sink: AuditSink,
  onAudit: ((rec: AuditRecord) => void) | undefined,
  logger: TwinlineLogger | undefined,
): AuditSink {
  if (!onAudit && !logger) return sink;
  return {
    record: (rec) => {
      onAudit?.(rec);
      if (logger?.isLevelEnabled('debug')) logger.debug(decisionLogLine(rec), 'decision');
      sink.record(rec);
    },
    flush: () => sink.flush(),
  };
}
