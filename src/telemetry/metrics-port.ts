import type { StageDecision } from '../core/index.js';

/**
 * What the request path reports for Prometheus (src/server/metrics.ts keeps the metric
 * definitions). Labels are names the configuration gives (stage, verdict, rule id, tool, line,
 * model) — never a tenant, a user or anything a request carried (docs/operations.md, "Metrics").
 */
export interface TelemetryMetrics {
  /** One stage of one call decided (`decision`) or, for a result transform, ran. */
  stage(stage: string, decision: StageDecision | undefined, seconds: number): void;
  /** One model turn ended. */
  modelTurn(turn: ModelTurnMetrics): void;
  /** A task waited `seconds` in a line's queue before it started. */
  queueWait(line: string, seconds: number): void;
  /** The input gate judged one request. */
  inputGate(verdict: string): void;
}

export interface ModelTurnMetrics {
  readonly provider: string;
  readonly model: string;
  readonly seconds: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly outcome: 'ok' | 'error';
}
