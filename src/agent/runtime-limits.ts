/** Limits and timeouts of a session's agent tree. */
export interface RuntimeLimits {
  /** Model turns per run of one agent. */
  readonly maxTurns: number;
  /** Deepest nesting a sub-agent may have (the main agent is depth 0). */
  readonly maxDepth: number;
  /** How long a bubbled background approval waits before it is denied. */
  readonly backgroundApprovalTimeoutMs: number;
  /** Tokens (input + output) one run may spend; unlimited when absent. */
  readonly maxTokens?: number;
  /** Wall time of one run; unlimited when absent. */
  readonly maxWallMs?: number;
  /** Dollars one run may spend (providers that report cost); unlimited when absent. */
  readonly maxCostUsd?: number;
}

export const DEFAULT_LIMITS: RuntimeLimits = {
  maxTurns: 25,
  maxDepth: 3,
  backgroundApprovalTimeoutMs: 30_000,
};
