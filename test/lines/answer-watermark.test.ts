import { describe, expect, it } from 'vitest';
import type { Identity } from '../../src/core/index.js';
import { decodeWatermark, Egress, stripWatermark, type WatermarkChannels } from '../../src/gates/index.js';
import { gateRequestResult, type RequestResult } from '../../src/lines/index.js';

const alice: Identity = {
  tenant: 'acme',
  user: 'alice',
  roles: ['employee'],
  dataLevel: 'L1',
  attributes: {},
};
const key = 'output-gate-test-key';
const result = (text: string): RequestResult => ({
  requestId: 'r',
  sessionId: '0f8fad5b-d9cb-469f-a165-70867728950e',
  route: { target: 'quick', scores: { deep: 0, quick: 1 }, rule: null },
  outcome: 'completed',
  text,
  executed: [],
  denied: [],
});
const opened = (s: string | undefined) => (s ? decodeWatermark(s, { key, tenants: ['acme'] }) : undefined);
const gated = (text: string, channel: string, watermarkChannels?: WatermarkChannels) =>
  gateRequestResult(
    new Egress({ watermarkKey: key, ...(watermarkChannels ? { watermarkChannels } : {}) }).for({
      viewer: alice,
      sessionId: result(text).sessionId,
      channel,
    }),
    result(text),
  );

describe('an answer carries the session watermark as each channel says', () => {
  const prose = 'Your meeting moved to Thursday. The room is 3B, as before.';

  it('text (the default): invisible in the answer, and as a field beside it', () => {
    const out = gated(prose, 'api');
    expect(out.text).not.toBe(prose);
    expect(stripWatermark(out.text)).toBe(prose);
    expect(opened(out.text)).toMatchObject({ tenant: 'acme', user: 'alice', channel: 'api' });
    expect(opened(out.watermark)).toMatchObject({ user: 'alice' });
  });

  it('a JSON answer is never touched: it parses to the same value, the field carries the mark', () => {
    const json = JSON.stringify({ ticket: 'TCK-447ff2d4', note: 'Done. Call back, please.', amount: 12.5 });
    const out = gated(json, 'api');
    expect(out.text).toBe(json);
    expect(JSON.parse(out.text)).toEqual(JSON.parse(json));
    expect(opened(out.watermark)).toMatchObject({ tenant: 'acme', user: 'alice' });
  });

  it('field: only the field; off: neither', () => {
    const channels: WatermarkChannels = { default: 'text', channels: { 'stream-json': 'field', cli: 'off' } };
    const field = gated(prose, 'stream-json', channels);
    expect(field.text).toBe(prose);
    expect(opened(field.watermark)).toMatchObject({ channel: 'stream-json' });
    const off = gated(prose, 'cli', channels);
    expect(off.text).toBe(prose);
    expect(off.watermark).toBeUndefined();
  });
});
