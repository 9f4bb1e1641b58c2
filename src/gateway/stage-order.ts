import type { GatewayStage } from './types.js';

/**
 * The canonical order of pre-execution stage slots. Foundation ships `schema`, `rbac` and
 * `review`; later layers plug their stages into the remaining named slots with `insertStage`.
 */
export const STAGE_ORDER = [
  'access',
  'schema',
  'rbac',
  'policy',
  'parameters',
  'intent',
  'review',
  'approval',
  'resilience',
] as const;
export type StageSlot = (typeof STAGE_ORDER)[number];

/** Where to put a stage relative to an existing one (by name). */
export type StagePosition = { readonly before: string } | { readonly after: string };

/**
 * A new stage list with `stage` placed before/after the named stage. When the anchor is not in the
 * list, the stage goes where the canonical order puts it (or last if its anchor is not canonical).
 */
export function insertStage(
  list: readonly GatewayStage[],
  stage: GatewayStage,
  position: StagePosition,
): GatewayStage[] {
  const out = [...list];
  const anchor = 'before' in position ? position.before : position.after;
  const at = out.findIndex((s) => s.name === anchor);
  if (at >= 0) {
    out.splice('before' in position ? at : at + 1, 0, stage);
    return out;
  }
  const rank = (name: string) => STAGE_ORDER.indexOf(name as StageSlot);
  const anchorRank = rank(anchor);
  if (anchorRank < 0) {
    out.push(stage);
    return out;
  }
  // Place by canonical rank: before the first existing stage ranked after the anchor slot.
  const bound = 'before' in position ? anchorRank - 0.5 : anchorRank + 0.5;
  const idx = out.findIndex((s) => {
    const r = rank(s.name);
    return r >= 0 && r > bound;
  });
  if (idx < 0) out.push(stage);
  else out.splice(idx, 0, stage);
  return out;
}
