import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { uuidV7 } from '../../src/core/index.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const timeOf = (id: string) => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);

// Each case starts its clock far past the previous case's: ids are increasing per process.
describe('uuidV7', () => {
  it('has version 7, the RFC variant, and the given millisecond in its first 48 bits', () => {
    const now = Date.now() + 10_000;
    const id = uuidV7(now);
    expect(id).toMatch(V7);
    expect(timeOf(id)).toBe(now);
    expect(timeOf(uuidV7(now + 10_000))).toBe(now + 10_000);
  });

  it('is strictly increasing, as text, whatever the clock does', () => {
    let clock = Date.now() + 1_000_000;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 1, maxLength: 5000 }), (steps) => {
        // A clock that stands still, steps forward, or steps back.
        clock += 1_000;
        let previous = uuidV7(clock);
        for (const step of steps) {
          clock += step;
          const id = uuidV7(clock);
          expect(id).toMatch(V7);
          expect(id > previous, `${id} after ${previous}`).toBe(true);
          previous = id;
        }
      }),
      { numRuns: 50 },
    );
  });

  it('carries the timestamp forward when 4096 ids share one millisecond', () => {
    const now = Date.now() + 5_000_000;
    const ids = Array.from({ length: 10_000 }, () => uuidV7(now));
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    expect(timeOf(ids[0]!)).toBe(now);
    expect(timeOf(ids[ids.length - 1]!)).toBeGreaterThan(now);
    expect(timeOf(ids[ids.length - 1]!)).toBeLessThanOrEqual(now + 5);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('draws fresh random bits for each id', () => {
    const start = Date.now() + 9_000_000;
    const tails = new Set(Array.from({ length: 2000 }, (_, i) => uuidV7(start + i).slice(19)));
    expect(tails.size).toBe(2000);
  });
});
