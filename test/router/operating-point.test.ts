import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_KEEP_FLOOR,
  fitOperatingPoint,
  fitTemperature,
  type LabelledRequest,
  route,
  shippedRouterModel,
} from '../../src/router/index.js';

const calibration: LabelledRequest[] = readFileSync('data/router/novel-cal.jsonl', 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as LabelledRequest);

function measure(temperature: number) {
  const model = { ...shippedRouterModel(), temperature };
  let right = 0;
  let actionable = 0;
  let kept = 0;
  let fallback = 0;
  for (const r of calibration) {
    const t = route(r.query, { model }).target;
    if (r.label === 'readonly_fallback') {
      fallback++;
      if (t === 'readonly_fallback') kept++;
    } else {
      actionable++;
      if (t === r.label) right++;
    }
  }
  return { right: right / actionable, kept: kept / fallback };
}

describe('router operating point', () => {
  it('keeps the floor of read-only requests and routes at least as many right as the likelihood fit', () => {
    const model = { ...shippedRouterModel() };
    const before = model.temperature;
    const point = fitOperatingPoint(model, calibration);
    expect(model.temperature).toBe(before);
    const likeliest = measure(fitTemperature(model, calibration));
    const chosen = measure(point.temperature);
    expect(chosen).toEqual({ right: point.right, kept: point.kept });
    if (likeliest.kept >= DEFAULT_KEEP_FLOOR) {
      expect(point.kept).toBeGreaterThanOrEqual(DEFAULT_KEEP_FLOOR);
      expect(point.right).toBeGreaterThanOrEqual(likeliest.right);
    }
  });

  it('a floor no temperature can keep falls back to the likelihood fit', () => {
    const model = { ...shippedRouterModel() };
    const point = fitOperatingPoint(model, calibration, 1.01);
    expect(point.temperature).toBe(fitTemperature(model, calibration));
  });
});
