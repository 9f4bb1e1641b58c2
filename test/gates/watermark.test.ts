import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeWatermark,
  embedWatermark,
  scanText,
  stripWatermark,
  type Watermark,
} from '../../src/gates/index.js';

const key = 'test-key-1';
const SYMBOL_SET = new Set(['\u200b', '\u200c', '\u200d', '\u2060']);
const wm: Watermark = {
  tenant: 'acme',
  user: 'alice',
  session: '0f8fad5b-d9cb-469f-a165-70867728950e',
  channel: 'web',
};
const text =
  '本季度销售额同比增长12%，其中华东区贡献最大。建议下季度加大对华南渠道的投入，并在五月前完成新品发布的准备工作。' +
  'The quarterly review shows strong growth in the east region; the south channel needs more investment before May.';

describe('watermarks', () => {
  it('round-trips and stays invisible', () => {
    const marked = embedWatermark(text, wm, { key });
    expect(stripWatermark(marked)).toBe(text);
    expect(decodeWatermark(marked, { key })).toMatchObject(wm);
  });

  it('non-UUID sessions and unicode fields round-trip', () => {
    const w = { tenant: '租户甲', user: 'bob@corp', session: 'sess-42', channel: 'im' };
    expect(decodeWatermark(embedWatermark(text, w, { key }), { key })).toMatchObject(w);
  });

  it('a partial copy from the middle still decodes', () => {
    const marked = embedWatermark(text.repeat(4), wm, { key });
    const part = marked.slice(Math.floor(marked.length * 0.4), Math.floor(marked.length * 0.85));
    expect(decodeWatermark(part, { key })).toMatchObject(wm);
  });

  it('whitespace changes and re-wrapping do not break it', () => {
    const marked = embedWatermark(text, wm, { key });
    const rewrapped = marked.replace(/ /g, '\n  ').replace(/，/g, '， ');
    expect(decodeWatermark(rewrapped, { key })).toMatchObject(wm);
    const collapsed = marked.replace(/\s+/g, ' ');
    expect(decodeWatermark(collapsed, { key })).toMatchObject(wm);
  });

  it('a short text still carries one whole frame', () => {
    expect(decodeWatermark(embedWatermark('OK', wm, { key }), { key })).toMatchObject(wm);
  });

  it('tampering, a wrong key or a stripped copy decode to nothing', () => {
    const marked = embedWatermark(text, wm, { key });
    expect(decodeWatermark(marked, { key: 'other' })).toBeUndefined();
    expect(decodeWatermark(stripWatermark(marked), { key })).toBeUndefined();
    // flip one invisible symbol in every frame
    const swapped = marked.replace(/\u200b/g, '\u200c');
    expect(decodeWatermark(swapped, { key })).toBeUndefined();
  });

  it('property: any single-symbol change in a frame is rejected', () => {
    const marked = embedWatermark('x', wm, { key });
    const positions = [...marked].map((c, i) => (SYMBOL_SET.has(c) ? i : -1)).filter((i) => i >= 0);
    const chars = [...marked];
    fc.assert(
      fc.property(
        fc.constantFrom(...positions),
        fc.constantFrom('\u200b', '\u200c', '\u200d', '\u2060'),
        (pos, sym) => {
          if (chars[pos] === sym) return true;
          const copy = [...chars];
          copy[pos] = sym;
          return decodeWatermark(copy.join(''), { key }) === undefined;
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the input gate ignores watermark characters', () => {
    expect(scanText(embedWatermark('Please book room 3 for Monday.', wm, { key })).verdict).toBe('pass');
  });
});
