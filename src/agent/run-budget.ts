import type { TokenUsage } from './providers/index.js';

/** Limits of one run: turns, tokens and wall time. */
export interface RunBudget {
  readonly maxTurns: number;
  readonly maxTokens?: number;
  readonly maxWallMs?: number;
  /** Dollars one run may spend; checked against the cost the provider reports. */
  readonly maxCostUsd?: number;
}

/** Why a run must stop before the next turn, or undefined to go on. Pure. */
export function budgetStop(
  budget: RunBudget,
  state: { turns: number; usage: TokenUsage; elapsedMs: number },
): 'max_turns' | 'budget_exceeded' | undefined {
  if (state.turns >= budget.maxTurns) return 'max_turns';
  if (
    budget.maxTokens !== undefined &&
    state.usage.inputTokens + state.usage.outputTokens >= budget.maxTokens
  ) {
    return 'budget_exceeded';
  }
  if (budget.maxWallMs !== undefined && state.elapsedMs >= budget.maxWallMs) return 'budget_exceeded';
  if (budget.maxCostUsd !== undefined && (state.usage.costUsd ?? 0) >= budget.maxCostUsd) {
    return 'budget_exceeded';
  }
  return undefined;
}
