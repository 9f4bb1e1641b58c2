import { ConfigError } from '../core/index.js';

/**
 * The two lines are separate trust chains (seed 004 §1.3): their tool allowlists must be disjoint.
 * Throws a `ConfigError` naming the shared tools unless overlap is explicitly allowed.
 */
export function assertDisjointAllowlists(
  deep: readonly string[],
  quick: readonly string[],
  options: { allowOverlap?: boolean; where?: string } = {},
): void {
  if (options.allowOverlap) return;
  const quickSet = new Set(quick);
  const shared = deep.filter((t) => quickSet.has(t));
  if (shared.length > 0) {
    throw new ConfigError(
      'config.lines_overlap',
      `lines.deep.allow and lines.quick.allow share ${shared.join(', ')}; the lines must be disjoint (set lines.allowOverlap: true to accept this)`,
      { where: options.where ?? 'lines' },
    );
  }
}
