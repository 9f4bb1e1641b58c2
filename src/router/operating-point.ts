/**
 * The router's operating point. The threshold is fixed (0.82: the better tool line must reach
 * it); what the trainer chooses is the temperature, and with it how many requests clear the
 * threshold. The negative log-likelihood fit (`fitTemperature`) makes scores honest
 * probabilities but leaves many plain requests by a new hand just under 0.82; this fit instead
 * takes, among temperatures that keep at least `keepFloor` of the calibration set's
 * readonly_fallback requests on the read-only line, the one that routes the most deep and quick
 * requests right (ties: the likelihood fit first, then the lower temperature). docs/router.md
 * "Operating point".
 */
import type { RouterModel } from './classifier.js';
import { route } from './route.js';
import { fitTemperature, type LabelledRequest } from './train.js';
import type { RouteClass, RouteTarget } from './types.js';

/**
 * The two figures the router is judged on, counted over routed requests: deep and quick ones
 * routed to their own line (`right`), readonly_fallback ones kept read-only (`kept`).
 */
export class RouteTally {
  actionable = 0;
  routedRight = 0;
  fallback = 0;
  keptReadonly = 0;

  add(label: RouteClass, target: RouteTarget): void {
    if (label === 'readonly_fallback') {
      this.fallback++;
      if (target === 'readonly_fallback') this.keptReadonly++;
    } else {
      this.actionable++;
      if (target === label) this.routedRight++;
    }
  }

  get right(): number {
    return this.routedRight / Math.max(1, this.actionable);
  }

  get kept(): number {
    return this.keptReadonly / Math.max(1, this.fallback);
  }
}

/** Share of calibration readonly_fallback requests that must stay read-only. */
export const DEFAULT_KEEP_FLOOR = 0.93;

export interface OperatingPoint {
  temperature: number;
  /** On the calibration set: deep+quick routed right, readonly_fallback kept. */
  right: number;
  kept: number;
}

/** Picks the temperature as above; `model.temperature` is left as it was. */
export function fitOperatingPoint(
  model: RouterModel,
  calibration: readonly LabelledRequest[],
  keepFloor = DEFAULT_KEEP_FLOOR,
): OperatingPoint {
  const original = model.temperature;
  const likeliest = fitTemperature(model, calibration);
  const measure = (t: number): OperatingPoint => {
    model.temperature = t;
    const tally = new RouteTally();
    for (const r of calibration) tally.add(r.label, route(r.query, { model }).target);
    return { temperature: t, right: tally.right, kept: tally.kept };
  };
  try {
    const fallback = measure(likeliest);
    let best: OperatingPoint | undefined = fallback.kept >= keepFloor ? fallback : undefined;
    for (let t = 0.3; t <= 3.0001; t += 0.05) {
      const p = measure(Math.round(t * 100) / 100);
      if (p.kept >= keepFloor && (best === undefined || p.right > best.right)) best = p;
    }
    // no temperature keeps enough read-only: the likeliest fit, as before
    return best ?? fallback;
  } finally {
    model.temperature = original;
  }
}
