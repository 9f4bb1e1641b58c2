/**
 * A compiled walker for manifest field paths (`customers[].phone`, `owner.email`, `[].id`).
 * We write our own rather than use a log-redaction library: those censor one way per call and
 * serialise, while here each path carries its own action (mask, hash, aggregate, drop) and
 * aggregation needs every value of an array path at once.
 */
import { ConfigError } from '../../core/index.js';

export interface PathSegment {
  readonly key: string | undefined;
  /** `true` when the segment is followed by `[]`: iterate array items. */
  readonly each: boolean;
}

export interface CompiledPath {
  readonly source: string;
  readonly segments: readonly PathSegment[];
}

const SEGMENT = /^([A-Za-z_$][\w$-]*)?((?:\[\])*)$/;

export function compilePath(path: string): CompiledPath {
  const segments: PathSegment[] = [];
  for (const raw of path.split('.')) {
    const m = SEGMENT.exec(raw);
    if (!m || (m[1] === undefined && m[2] === '')) {
      throw new ConfigError(
        'gates.bad-field-path',
        `field path ${JSON.stringify(path)} has an invalid segment ${JSON.stringify(raw)}`,
        { where: `fieldTags["${path}"]` },
      );
    }
    segments.push({ key: m[1], each: false });
    for (let k = 0; k < m[2]!.length / 2; k++) segments.push({ key: undefined, each: true });
  }
  return { source: path, segments };
}

/** A place a path reached: the container and the key holding the value. */
export interface Slot {
  readonly parent: Record<string, unknown> | unknown[];
  readonly key: string | number;
}

/** Every existing slot `path` reaches in `root` (missing branches are skipped). */
export function resolveSlots(root: unknown, path: CompiledPath): Slot[] {
  let frontier: Slot[] = [{ parent: { $: root }, key: '$' }];
  for (const seg of path.segments) {
    const next: Slot[] = [];
    for (const slot of frontier) {
      const v = (slot.parent as Record<string | number, unknown>)[slot.key];
      if (seg.each) {
        if (Array.isArray(v)) for (let i = 0; i < v.length; i++) next.push({ parent: v, key: i });
      } else if (v !== null && typeof v === 'object' && !Array.isArray(v) && seg.key! in (v as object)) {
        next.push({ parent: v as Record<string, unknown>, key: seg.key! });
      }
    }
    frontier = next;
  }
  return frontier;
}
