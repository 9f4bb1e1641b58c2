import { z } from 'zod';
import { type DecidedBy, decidedBy, type StageDecision } from '../core/index.js';
import type { AuditRecord } from './audit-record.js';

/** The version of the decision log a row holds; a new shape gets a new number and a reader for it. */
export const DECISION_LOG_VERSION = 1;

const decidedBySchema = z.strictObject({
  stage: z.string(),
  ruleId: z.string(),
  reason: z.string(),
  verdict: z.enum(['allow', 'deny', 'ask', 'review']),
});

/** The `decision_log` column (docs/operations.md, "Decision log"): what decided, and what was asked. */
const decisionLogSchema = z.strictObject({
  version: z.literal(DECISION_LOG_VERSION),
  decidedBy: decidedBySchema.optional(),
  args: z.unknown().optional(),
  argsLevel: z.string().optional(),
});

export type DecisionLog = z.infer<typeof decisionLogSchema>;

/** The decision log of a record as stored; null when the record carries none. */
export function decisionLogJson(r: AuditRecord): string | null {
  if (!r.decidedBy && r.argsLevel === undefined) return null;
  const log: DecisionLog = {
    version: DECISION_LOG_VERSION,
    ...(r.decidedBy ? { decidedBy: r.decidedBy } : {}),
    ...(r.argsLevel !== undefined ? { args: r.args ?? null, argsLevel: r.argsLevel } : {}),
  };
  return JSON.stringify(log);
}

/**
 * A stored decision log read back. A row written before the log existed gets its "decided by"
 * from the decision path; a log that does not parse is reported on the record, never guessed at.
 */
export function readDecisionLog(
  json: string | null,
  status: string,
  path: readonly StageDecision[],
): { decidedBy?: DecidedBy; args?: unknown; argsLevel?: string; decisionLogError?: string } {
  if (json === null) {
    const d = decidedBy(status, path);
    return d ? { decidedBy: d } : {};
  }
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (err) {
    return { decisionLogError: `decision_log is not JSON: ${(err as Error).message}` };
  }
  const parsed = decisionLogSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      decisionLogError: `decision_log does not match version ${DECISION_LOG_VERSION}: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`,
    };
  }
  const log = parsed.data;
  return {
    ...(log.decidedBy ? { decidedBy: log.decidedBy } : {}),
    ...(log.argsLevel !== undefined ? { args: log.args, argsLevel: log.argsLevel } : {}),
  };
}
