import { describe, expect, it } from 'vitest';
import { ConcurrencyQueue } from '../../src/resilience/index.js';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { open, opened };
}

describe('ConcurrencyQueue', () => {
  it('runs at most `concurrency` jobs and tells later ones their place and an estimate', async () => {
    const q = new ConcurrencyQueue({ concurrency: 2, initialEstimateMs: 60_000 });
    const gates = [gate(), gate(), gate(), gate()];
    let running = 0;
    let peak = 0;
    const tickets = gates.map((g, i) =>
      q.submit(async () => {
        running++;
        peak = Math.max(peak, running);
        await g.opened;
        running--;
        return i;
      }),
    );
    expect(tickets.map((t) => t.position)).toEqual([0, 0, 1, 2]);
    expect(tickets[0]!.estimatedStartMs).toBe(0);
    expect(tickets[2]!.estimatedStartMs).toBe(60_000);
    expect(tickets[3]!.estimatedStartMs).toBe(60_000);
    for (const g of gates) g.open();
    expect(await Promise.all(tickets.map((t) => t.done))).toEqual([0, 1, 2, 3]);
    expect(peak).toBe(2);
  });

  it('a failing job rejects only its own ticket', async () => {
    const q = new ConcurrencyQueue({ concurrency: 1 });
    const bad = q.submit(() => Promise.reject(new Error('boom')));
    const good = q.submit(() => Promise.resolve('fine'));
    await expect(bad.done).rejects.toThrow('boom');
    await expect(good.done).resolves.toBe('fine');
  });
});
