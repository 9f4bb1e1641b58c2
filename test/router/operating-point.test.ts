import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_KEEP_FLOOR,
  fitOperatingPoint,
  fitTemperature,
  type LabelledRequest,
  RouteTally,
  route,
  shippedRouterModel,
} from '../../src/router/index.js';

const calibration: LabelledRequest[] = readFileSync('data/router/novel-cal.jsonl', 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as LabelledRequest);

function measure(temperature: number) {
  const model = { ...shippedRouterModel(), temperature };
  const tally = new RouteTally();
  for (const r of calibration) tally.add(r.label, route(r.query, { model }).target);
  return { right: tally.right, kept: tally.kept };
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

describe('RouteTally', () => {
  it.each([
    [
      [
        ['deep', 'deep'],
        ['quick', 'readonly_fallback'],
        ['readonly_fallback', 'readonly_fallback'],
      ],
      0.5,
      1,
    ],
    [
      [
        ['quick', 'deep'],
        ['readonly_fallback', 'quick'],
        ['readonly_fallback', 'readonly_fallback'],
      ],
      0,
      0.5,
    ],
    [[], 0, 0],
  ] as const)('%j → right %d, kept %d', (pairs, right, kept) => {
    const t = new RouteTally();
    for (const [label, target] of pairs) t.add(label, target);
    expect({ right: t.right, kept: t.kept }).toEqual({ right, kept });
  });
});
