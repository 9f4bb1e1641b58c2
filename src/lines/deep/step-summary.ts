/**
 * A structured summary of one step's result (docs/lines.md, "Context bus: summaries only"): the goal, the key data and the
 * anomalies — what the planner needs, not the payload. The raw output stays in the store.
 */
export interface StepSummary {
  readonly goal: string;
  readonly keyData: string;
  readonly anomalies: readonly string[];
}

const MAX_KEY_DATA = 240;

/** Summarises a gateway-processed output without a model: sizes, fields, totals, first values. */
export function summariseStep(goal: string, output: unknown): StepSummary {
  const anomalies: string[] = [];
  let keyData: string;
  const rows = findRows(output);
  if (rows) {
    const fields =
      rows.length > 0 && rows[0] && typeof rows[0] === 'object' ? Object.keys(rows[0] as object) : [];
    const totals = numericTotals(rows, fields);
    keyData = `${rows.length} rows${fields.length ? ` (${fields.slice(0, 6).join(', ')})` : ''}${totals ? `; ${totals}` : ''}`;
    if (rows.length === 0) anomalies.push('no rows returned');
  } else if (output && typeof output === 'object') {
    keyData = Object.entries(output as Record<string, unknown>)
      .filter(([, v]) => v === null || typeof v !== 'object')
      .slice(0, 8)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(', ');
  } else {
    keyData = String(output);
  }
  if (output && typeof output === 'object') {
    const o = output as Record<string, unknown>;
    for (const key of ['warning', 'warnings', 'error', 'anomalies']) {
      const v = o[key];
      if (typeof v === 'string') anomalies.push(v);
      else if (Array.isArray(v)) anomalies.push(...v.filter((x): x is string => typeof x === 'string'));
    }
  }
  return {
    goal,
    keyData: clip(keyData, MAX_KEY_DATA),
    anomalies: anomalies.slice(0, 5).map((a) => clip(a, 120)),
  };
}

/** Renders a summary as one compact line for a prompt. */
export function renderSummary(stepNo: number, tool: string, s: StepSummary, status: string): string {
  const anomalies = s.anomalies.length ? ` | anomalies: ${s.anomalies.join('; ')}` : '';
  return `#${stepNo} ${tool} [${status}] ${s.goal} → ${s.keyData}${anomalies}`;
}

function findRows(output: unknown): unknown[] | undefined {
  if (Array.isArray(output)) return output;
  if (output && typeof output === 'object') {
    for (const v of Object.values(output as Record<string, unknown>)) if (Array.isArray(v)) return v;
  }
  return undefined;
}

function numericTotals(rows: unknown[], fields: string[]): string {
  const parts: string[] = [];
  for (const f of fields) {
    let sum = 0;
    let n = 0;
    for (const r of rows) {
      const v = (r as Record<string, unknown>)?.[f];
      if (typeof v === 'number' && Number.isFinite(v)) {
        sum += v;
        n++;
      }
    }
    if (n > 0 && n === rows.length && !/id$/i.test(f))
      parts.push(`${f} total ${Math.round(sum * 100) / 100}`);
    if (parts.length >= 3) break;
  }
  return parts.join(', ');
}

function clip(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n - 1)}…`;
}
