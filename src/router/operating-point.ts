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
    let right = 0;
    let actionable = 0;
    let kept = 0;
    let fallback = 0;
    for (const r of calibration) {
      const target = route(r.query, { model }).target;
      if (r.label === 'readonly_fallback') {
        fallback++;
        if (target === 'readonly_fallback') kept++;
      } else {
        actionable++;
        if (target === r.label) right++;
      }
    }
    return { temperature: t, right: right / Math.max(1, actionable), kept: kept / Math.max(1, fallback) };
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
