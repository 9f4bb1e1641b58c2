/** Data sensitivity levels, lowest to highest. A user may see data at or below their level. */
export const DATA_LEVELS = ['L1', 'L2', 'L3', 'L4'] as const;
export type DataLevel = (typeof DATA_LEVELS)[number];

/** Numeric rank of a data level, for comparisons (`L1` → 1 … `L4` → 4). */
export function dataLevelRank(level: DataLevel): number {
  return DATA_LEVELS.indexOf(level) + 1;
}

/** An attribute value of a user: a scalar or a set (departments, projects, …). */
export type AttributeValue = string | number | boolean | readonly string[];

/**
 * Who is calling. Built only by trusted ingress (config, API key, JWT) — never from anything the
 * model or a request body wrote. Every decision in Twinline is made from this, not from prompts.
 */
export interface Identity {
  readonly tenant: string;
  readonly user: string;
  readonly roles: readonly string[];
  readonly dataLevel: DataLevel;
  /** department, region, projects, departments, … */
  readonly attributes: Readonly<Record<string, AttributeValue>>;
}
