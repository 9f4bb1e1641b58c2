import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AgentEvent,
  AgentEventBus,
  budgetStop,
  callBatches,
  ResourceTracker,
  TaskBoard,
} from '../../src/agent/index.js';

describe('callBatches', () => {
  it('keeps the model order and groups only consecutive concurrency-safe calls', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { maxLength: 40 }), (safety) => {
        const calls = safety.map((safe, i) => ({ i, safe }));
        const batches = callBatches(calls, (c) => c.safe);
        // Order preserved, nothing lost.
        expect(batches.flat().map((c) => c.i)).toEqual(calls.map((c) => c.i));
        for (const b of batches) {
          // A batch is either one unsafe call or only safe calls.
          if (b.some((c) => !c.safe)) expect(b).toHaveLength(1);
        }
        // Two safe batches are never adjacent (they would have been merged).
        for (let k = 1; k < batches.length; k++) {
          expect(batches[k - 1]!.every((c) => c.safe) && batches[k]!.every((c) => c.safe)).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('budgetStop', () => {
  const usage = (i: number, o: number) => ({ inputTokens: i, outputTokens: o });
  it.each([
    [{ maxTurns: 3 }, { turns: 2, usage: usage(0, 0), elapsedMs: 0 }, undefined],
    [{ maxTurns: 3 }, { turns: 3, usage: usage(0, 0), elapsedMs: 0 }, 'max_turns'],
    [{ maxTurns: 9, maxTokens: 100 }, { turns: 1, usage: usage(60, 39), elapsedMs: 0 }, undefined],
    [{ maxTurns: 9, maxTokens: 100 }, { turns: 1, usage: usage(60, 40), elapsedMs: 0 }, 'budget_exceeded'],
    [{ maxTurns: 9, maxWallMs: 1000 }, { turns: 1, usage: usage(0, 0), elapsedMs: 999 }, undefined],
    [{ maxTurns: 9, maxWallMs: 1000 }, { turns: 1, usage: usage(0, 0), elapsedMs: 1000 }, 'budget_exceeded'],
  ] as const)('%j at %j → %s', (budget, state, expected) => {
    expect(budgetStop(budget, state)).toBe(expected);
  });
});

describe('ResourceTracker', () => {
  it('forgets fired and cleared timers and settled promises, and reports idle', async () => {
    const t = new ResourceTracker();
    let fired = false;
    t.setTimer('fires', 1, () => {
      fired = true;
    });
    const clear = t.setTimer('cleared', 60_000, () => {});
    let release!: () => void;
    t.track('work', new Promise<void>((r) => (release = r)));
    expect(t.pending()).toEqual({ timers: ['fires', 'cleared'], promises: ['work'] });
    clear();
    release();
    await t.idle();
    expect(fired).toBe(true);
    expect(t.pending()).toEqual({ timers: [], promises: [] });
  });
});

describe('AgentEventBus', () => {
  const ev = (n: number): AgentEvent => ({
    sessionId: 's',
    agentId: 'main',
    agent: 'main',
    depth: 0,
    type: 'turn_start',
    turn: n,
  });

  it('buffers for each subscriber from the moment it subscribed and isolates listener errors', async () => {
    const bus = new AgentEventBus();
    bus.on(() => {
      throw new Error('bad consumer');
    });
    bus.emit(ev(0));
    const stream = bus.subscribe();
    bus.emit(ev(1));
    bus.emit(ev(2));
    stream.close();
    bus.emit(ev(3));
    const seen: number[] = [];
    for await (const e of stream) if (e.type === 'turn_start') seen.push(e.turn);
    expect(seen).toEqual([1, 2]);
  });
});

describe('TaskBoard', () => {
  it('creates, lists by status and updates tasks with who changed them', () => {
    const b = new TaskBoard(() => new Date('2026-03-01T00:00:00Z'));
    const t = b.create({ subject: 'one' }, 'main');
    b.create({ subject: 'two', owner: 'x' }, 'main/x-1');
    expect(b.update(t.id, { status: 'in_progress', owner: undefined }, 'main/x-1')).toMatchObject({
      status: 'in_progress',
      updatedBy: 'main/x-1',
      createdBy: 'main',
    });
    expect(b.list('pending').map((x) => x.subject)).toEqual(['two']);
    expect(() => b.get('task-99')).toThrow(/task-99/);
  });
});
