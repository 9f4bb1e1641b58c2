import { createHash } from 'node:crypto';
import type { DataLevel } from '../../core/index.js';
import { type CompiledPath, compilePath, resolveSlots } from './field-paths.js';
import { maskValue } from './pii/mask.js';

export type FieldAction = 'raw' | 'mask' | 'hash' | 'aggregate' | 'drop';

/** Per tag: what each viewer level gets. */
export type TagPolicy = Readonly<Record<DataLevel, FieldAction>>;

/**
 * Default policy table (documented in docs/gates.md). Tags not listed use `DEFAULT_TAG_POLICY`.
 * Prefix fallback: `pii.phone.work` uses `pii.phone` when it has no entry of its own.
 */
export const DEFAULT_TAG_POLICIES: Readonly<Record<string, TagPolicy>> = {
  'pii.name': { L1: 'mask', L2: 'raw', L3: 'raw', L4: 'raw' },
  'pii.phone': { L1: 'drop', L2: 'mask', L3: 'raw', L4: 'raw' },
  'pii.email': { L1: 'drop', L2: 'mask', L3: 'raw', L4: 'raw' },
  'pii.address': { L1: 'drop', L2: 'mask', L3: 'raw', L4: 'raw' },
  'pii.id': { L1: 'drop', L2: 'drop', L3: 'mask', L4: 'raw' },
  'finance.amount': { L1: 'aggregate', L2: 'aggregate', L3: 'raw', L4: 'raw' },
  'finance.account': { L1: 'drop', L2: 'drop', L3: 'mask', L4: 'raw' },
  'hr.salary': { L1: 'drop', L2: 'aggregate', L3: 'aggregate', L4: 'raw' },
  'hr.performance': { L1: 'drop', L2: 'drop', L3: 'hash', L4: 'raw' },
};
export const DEFAULT_TAG_POLICY: TagPolicy = { L1: 'mask', L2: 'mask', L3: 'mask', L4: 'raw' };

export interface FieldRedactionConfig {
  readonly policies?: Readonly<Record<string, TagPolicy>>;
  readonly fallback?: TagPolicy;
  /** Salt for `hash` so equal values stay joinable without being reversible by lookup tables. */
  readonly hashSalt?: string;
}

export interface FieldRedactionNote {
  readonly path: string;
  readonly tag: string;
  readonly action: FieldAction;
  readonly count: number;
}

/** Aggregate of numeric values, or a count for non-numeric ones. */
export interface FieldAggregate {
  readonly count: number;
  readonly sum?: number;
  readonly avg?: number;
  readonly min?: number;
  readonly max?: number;
}

export function policyFor(tag: string, config: FieldRedactionConfig): TagPolicy {
  const table = { ...DEFAULT_TAG_POLICIES, ...config.policies };
  for (let t = tag; t !== ''; t = t.includes('.') ? t.slice(0, t.lastIndexOf('.')) : '') {
    const p = table[t];
    if (p) return p;
  }
  return config.fallback ?? DEFAULT_TAG_POLICY;
}

function hashValue(v: unknown, salt: string): string {
  return `h:${createHash('sha256').update(salt).update('\0').update(JSON.stringify(v)).digest('hex').slice(0, 16)}`;
}

function aggregateOf(values: unknown[]): FieldAggregate {
  const nums = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  if (nums.length === 0) return { count: values.length };
  const sum = nums.reduce((a, b) => a + b, 0);
  const r = (x: number) => Math.round(x * 100) / 100;
  return {
    count: values.length,
    sum: r(sum),
    avg: r(sum / nums.length),
    min: Math.min(...nums),
    max: Math.max(...nums),
  };
}

/** A single number cannot be aggregated with peers: report its order of magnitude instead. */
function magnitudeBucket(v: unknown): string {
  if (typeof v !== 'number' || !Number.isFinite(v) || v === 0) return '[aggregated]';
  const p = 10 ** Math.floor(Math.log10(Math.abs(v)));
  return `${Math.sign(v) * p}–${Math.sign(v) * p * 10}`;
}

const compiled = new Map<string, CompiledPath>();
function compileCached(path: string): CompiledPath {
  let c = compiled.get(path);
  if (!c) {
    c = compilePath(path);
    compiled.set(path, c);
  }
  return c;
}

/**
 * Applies `fieldTags` to `output` for a viewer. Returns a redacted copy (the input is never
 * mutated), the notes for the audit, and aggregates keyed by path (attached by the stage).
 */
export function redactFields(
  output: unknown,
  fieldTags: Readonly<Record<string, string>>,
  viewerLevel: DataLevel,
  config: FieldRedactionConfig = {},
): { output: unknown; notes: FieldRedactionNote[]; aggregates: Record<string, FieldAggregate> } {
  const copy = structuredClone(output);
  const notes: FieldRedactionNote[] = [];
  const aggregates: Record<string, FieldAggregate> = {};
  const salt = config.hashSalt ?? 'twinline';
  // Longest paths first so a drop of a parent never hides the child's own rule.
  const entries = Object.entries(fieldTags).sort((a, b) => b[0].length - a[0].length);
  for (const [path, tag] of entries) {
    const action = policyFor(tag, config)[viewerLevel];
    if (action === 'raw') continue;
    const cp = compileCached(path);
    const slots = resolveSlots(copy, cp);
    if (slots.length === 0) continue;
    const perItem = cp.segments.some((s) => s.each);
    if (action === 'aggregate' && perItem) {
      aggregates[path] = aggregateOf(slots.map((s) => (s.parent as Record<string | number, unknown>)[s.key]));
    }
    // Delete array items from the end so indices stay valid.
    for (const slot of [...slots].reverse()) {
      const parent = slot.parent as Record<string | number, unknown>;
      const v = parent[slot.key];
      if (action === 'drop' || (action === 'aggregate' && perItem)) {
        if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 1);
        else delete parent[slot.key];
      } else if (action === 'mask')
        parent[slot.key] = v === null || v === undefined ? v : maskValue(String(v));
      else if (action === 'hash') parent[slot.key] = hashValue(v, salt);
      else if (action === 'aggregate') parent[slot.key] = magnitudeBucket(v);
    }
    notes.push({ path, tag, action, count: slots.length });
  }
  return { output: copy, notes, aggregates };
}
