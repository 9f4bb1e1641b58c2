import { isSharedFrozen } from './frozen-output.js';

/**
 * A short description of an output's shape for the audit: counts and keys, never values, so the
 * audit never becomes a copy of the data it guards.
 */
export function summariseOutput(output: unknown): string {
  if (!isSharedFrozen(output)) return `ok ${shape(output, 0)}`.slice(0, 200);
  // A shared (cached) output cannot change: its summary is made once.
  let summary = summaries.get(output);
  if (summary === undefined) {
    summary = `ok ${shape(output, 0)}`.slice(0, 200);
    summaries.set(output, summary);
  }
  return summary;
}

const summaries = new WeakMap<object, string>();

function shape(value: unknown, depth: number): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `[${value.length}]`;
  if (typeof value === 'object') {
    if (depth > 0) return '{…}';
    const parts = Object.entries(value as Record<string, unknown>)
      .slice(0, 8)
      .map(([k, v]) => `${k}${Array.isArray(v) ? `[${v.length}]` : ''}`);
    return `{${parts.join(',')}}`;
  }
  return typeof value;
}
