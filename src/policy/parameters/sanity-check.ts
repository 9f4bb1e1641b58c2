import type { DateConstraint, NumberConstraint } from '../types.js';

const DAY_MS = 86_400_000;

/** A business-sanity failure, phrased for the model to correct itself. */
export interface SanityFailure {
  readonly ruleId: string;
  readonly reason: string;
}

/** Dates must lie within the declared number of days of now (docs/policy.md, "Parameter gate"). */
export function checkDate(
  arg: string,
  value: unknown,
  c: DateConstraint,
  now: Date,
): SanityFailure | undefined {
  if (value === undefined) return undefined;
  const t = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(t)) {
    return {
      ruleId: 'parameters.date-invalid',
      reason: `${arg} must be an ISO-8601 date, got ${JSON.stringify(value)}`,
    };
  }
  const days = (t - now.getTime()) / DAY_MS;
  const ago = c.maxDaysAgo ?? c.maxDaysFromNow;
  const ahead = c.maxDaysAhead ?? c.maxDaysFromNow;
  const off = Math.abs(days).toFixed(1);
  if (ago !== undefined && days < -ago) {
    return {
      ruleId: 'parameters.date-range',
      reason: `${arg}=${value} is ${off} days before now; at most ${ago} days back are allowed`,
    };
  }
  if (ahead !== undefined && days > ahead) {
    return {
      ruleId: 'parameters.date-range',
      reason: `${arg}=${value} is ${off} days after now; at most ${ahead} days ahead are allowed`,
    };
  }
  return undefined;
}

export function checkNumber(arg: string, value: unknown, c: NumberConstraint): SanityFailure | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || Number.isNaN(value)) {
    return { ruleId: 'parameters.number-invalid', reason: `${arg} must be a number` };
  }
  if ((c.min !== undefined && value < c.min) || (c.max !== undefined && value > c.max)) {
    return {
      ruleId: 'parameters.number-range',
      reason: `${arg}=${value} is outside the allowed range [${c.min ?? '-∞'}, ${c.max ?? '∞'}]`,
    };
  }
  return undefined;
}

export function checkOneOf(
  arg: string,
  value: unknown,
  allowed: readonly (string | number)[],
): SanityFailure | undefined {
  if (value === undefined) return undefined;
  if ((typeof value === 'string' || typeof value === 'number') && allowed.includes(value)) return undefined;
  return {
    ruleId: 'parameters.not-allowed-value',
    reason: `${arg} must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`,
  };
}
