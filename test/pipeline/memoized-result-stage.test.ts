import { describe, expect, it } from 'vitest';
import {
  type CallContext,
  freezeShared,
  type PreparedCall,
  type ResultStage,
} from '../../src/gateway/index.js';
import { memoizeResultStage } from '../../src/pipeline/memoized-result-stage.js';

const call = (tool: string) => ({ tool: { name: tool } }) as unknown as PreparedCall;
const ctx = (level: string) => ({ identity: { dataLevel: level } }) as unknown as CallContext;

function counting(): { stage: ResultStage; calls: () => number } {
  let n = 0;
  return {
    calls: () => n,
    stage: {
      name: 'result.redact',
      transform(output, c, x) {
        n++;
        return { output: { level: x.identity.dataLevel, tool: c.tool.name, output }, notes: ['masked ×1'] };
      },
    },
  };
}

describe('memoizeResultStage', () => {
  it('runs the stage once per tool, level and output, and hands out one answer nobody can alter', () => {
    const { stage, calls } = counting();
    const memo = memoizeResultStage(stage);
    const first = memo.transform({ a: [1, 2] }, call('t'), ctx('L1')) as {
      output: { output: { a: number[] } };
      notes: string[];
    };
    const second = memo.transform({ a: [1, 2] }, call('t'), ctx('L1')) as typeof first;
    expect(calls()).toBe(1);
    expect(second).toEqual(first);
    expect(() => second.output.output.a.push(3)).toThrow(TypeError);
    expect(() => second.notes.push('x')).toThrow(TypeError);
    // The caller's own first answer is not the memo's: changing it changes no later hit.
    first.output.output.a.push(4);
    const third = memo.transform({ a: [1, 2] }, call('t'), ctx('L1')) as typeof first;
    expect(third.output.output.a).toEqual([1, 2]);
    expect(calls()).toBe(1);
  });

  it('finds the answer of a shared frozen output by identity, per tool and level', () => {
    const { stage, calls } = counting();
    const memo = memoizeResultStage(stage);
    const shared = freezeShared({ a: [1, 2] });
    const first = memo.transform(shared, call('t'), ctx('L1'));
    const second = memo.transform(shared, call('t'), ctx('L1'));
    expect(second).toBe(memo.transform(shared, call('t'), ctx('L1')));
    expect(second).toEqual(first);
    expect(calls()).toBe(1);
    memo.transform(shared, call('t'), ctx('L3'));
    memo.transform(shared, call('u'), ctx('L1'));
    expect(calls()).toBe(3);
  });

  it('keeps tools, viewer levels and outputs apart', () => {
    const { stage, calls } = counting();
    const memo = memoizeResultStage(stage);
    memo.transform({ a: 1 }, call('t'), ctx('L1'));
    memo.transform({ a: 1 }, call('t'), ctx('L3'));
    memo.transform({ a: 1 }, call('u'), ctx('L1'));
    memo.transform({ a: 2 }, call('t'), ctx('L1'));
    expect(calls()).toBe(4);
  });

  it('passes outputs that are not JSON data, or too large, straight through', () => {
    const { stage, calls } = counting();
    const memo = memoizeResultStage(stage, { maxOutputChars: 10 });
    memo.transform({ big: 1n }, call('t'), ctx('L1'));
    memo.transform({ big: 1n }, call('t'), ctx('L1'));
    memo.transform({ text: 'more than ten characters' }, call('t'), ctx('L1'));
    memo.transform({ text: 'more than ten characters' }, call('t'), ctx('L1'));
    expect(calls()).toBe(4);
  });

  it('forgets the oldest entry beyond its bound', () => {
    const { stage, calls } = counting();
    const memo = memoizeResultStage(stage, { maxEntries: 2 });
    for (const v of [1, 2, 3, 1]) memo.transform({ v }, call('t'), ctx('L1'));
    expect(calls()).toBe(4);
  });
});
