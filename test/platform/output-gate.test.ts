import { describe, expect, it } from 'vitest';
import type { Identity } from '../../src/core/index.js';
import { decodeWatermark, stripWatermark } from '../../src/gates/index.js';
import type { RequestResult } from '../../src/lines/index.js';
import { gateOutput } from '../../src/platform/output-gate.js';

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

describe('the output gate carries the session watermark as each channel says', () => {
  const prose = 'Your meeting moved to Thursday. The room is 3B, as before.';

  it('text (the default): invisible in the answer, and as a field beside it', () => {
    const out = gateOutput(alice, result(prose), 'api', { watermarkKey: key });
    expect(out.text).not.toBe(prose);
    expect(stripWatermark(out.text)).toBe(prose);
    expect(opened(out.text)).toMatchObject({ tenant: 'acme', user: 'alice', channel: 'api' });
    expect(opened(out.watermark)).toMatchObject({ user: 'alice' });
  });

  it('a JSON answer is never touched: it parses to the same value, the field carries the mark', () => {
    const json = JSON.stringify({ ticket: 'TCK-447ff2d4', note: 'Done. Call back, please.', amount: 12.5 });
    const out = gateOutput(alice, result(json), 'api', { watermarkKey: key });
    expect(out.text).toBe(json);
    expect(JSON.parse(out.text)).toEqual(JSON.parse(json));
    expect(opened(out.watermark)).toMatchObject({ tenant: 'acme', user: 'alice' });
  });

  it('field: only the field; off: neither', () => {
    const channels = {
      default: 'text' as const,
      channels: { ndjson: 'field' as const, cli: 'off' as const },
    };
    const field = gateOutput(alice, result(prose), 'ndjson', {
      watermarkKey: key,
      watermarkChannels: channels,
    });
    expect(field.text).toBe(prose);
    expect(opened(field.watermark)).toMatchObject({ channel: 'ndjson' });
    const off = gateOutput(alice, result(prose), 'cli', { watermarkKey: key, watermarkChannels: channels });
    expect(off.text).toBe(prose);
    expect(off.watermark).toBeUndefined();
  });
});
