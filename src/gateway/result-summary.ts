/**
 * A short description of an output's shape for the audit: counts and keys, never values, so the
 * audit never becomes a copy of the data it guards.
 */
export function summariseOutput(output: unknown): string {
  return `ok ${shape(output, 0)}`.slice(0, 200);
}

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
