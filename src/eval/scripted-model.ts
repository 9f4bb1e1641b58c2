import type { ModelTurn } from './suite-schema.js';

/** A tool call the scenario's model proposes (quick-line tool call or deep-line plan step). */
export interface ProposedCall {
  readonly tool: string;
  readonly args: unknown;
}

/** Turns ready for the scripted provider, and every call they propose. */
export interface ResolvedScript {
  readonly turns: readonly {
    text?: string;
    tool_calls?: { id?: string; name: string; arguments?: unknown }[];
  }[];
  readonly proposed: readonly ProposedCall[];
}

const PLACEHOLDER = /\{\{\s*(today|month)\s*(?:([+-])\s*(\d{1,4}))?\s*\}\}/g;

/**
 * Replaces date placeholders so a static suite keeps meeting the policy's date windows:
 * `{{today}}`, `{{today-7}}`, `{{today+3}}` (YYYY-MM-DD) and `{{month}}`, `{{month-1}}` (YYYY-MM),
 * all in UTC relative to `now`.
 */
export function resolvePlaceholders(text: string, now: Date): string {
  return text.replace(PLACEHOLDER, (_m, unit: string, sign?: string, n?: string) => {
    const delta = n ? (sign === '-' ? -Number(n) : Number(n)) : 0;
    if (unit === 'today') {
      const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + delta));
      return d.toISOString().slice(0, 10);
    }
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + delta, 1));
    return d.toISOString().slice(0, 7);
  });
}

function deepResolve(value: unknown, now: Date): unknown {
  if (typeof value === 'string') return resolvePlaceholders(value, now);
  if (Array.isArray(value)) return value.map((v) => deepResolve(v, now));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deepResolve(v, now)]));
  }
  return value;
}

/** Turns a scenario's `model` into scripted-provider turns (plans become JSON text) and lists what it proposes. Pure. */
export function resolveScript(model: readonly ModelTurn[], now: Date): ResolvedScript {
  const proposed: ProposedCall[] = [];
  const turns = model.map((raw) => {
    const t = deepResolve(raw, now) as ModelTurn;
    if (t.plan) {
      for (const s of t.plan.steps) proposed.push({ tool: s.tool, args: s.args });
      const capabilities = t.plan.capabilities ?? [...new Set(t.plan.steps.map((s) => s.tool))];
      const out: { text: string; tool_calls?: { name: string; arguments?: unknown }[] } = {
        text: JSON.stringify({ ...t.plan, capabilities }),
      };
      if (t.tool_calls) out.tool_calls = t.tool_calls;
      return out;
    }
    for (const c of t.tool_calls ?? []) proposed.push({ tool: c.name, args: c.arguments ?? {} });
    return {
      ...(t.text !== undefined ? { text: t.text } : {}),
      ...(t.tool_calls ? { tool_calls: t.tool_calls } : {}),
    };
  });
  return { turns, proposed };
}
