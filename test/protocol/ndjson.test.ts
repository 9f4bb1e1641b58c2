import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeLine, LineDecoder } from '../../src/protocol/index.js';

function texts(decoded: ReturnType<LineDecoder['push']>): string[] {
  return decoded.map((d) => (d.kind === 'line' ? d.text : `<oversized ${d.length}>`));
}

describe('LineDecoder', () => {
  it('joins partial lines across chunks and strips CRLF', () => {
    const d = new LineDecoder(1000);
    expect(texts(d.push('{"a":'))).toEqual([]);
    expect(texts(d.push('1}\r\n{"b":2}\n{"c"'))).toEqual(['{"a":1}', '{"b":2}']);
    expect(texts(d.push(':3}'))).toEqual([]);
    expect(texts(d.end())).toEqual(['{"c":3}']);
  });

  it('skips blank lines', () => {
    const d = new LineDecoder(1000);
    expect(texts(d.push('\n\r\n  \n{"x":1}\n\n'))).toEqual(['{"x":1}']);
  });

  it('reports an oversized line once, keeps a prefix, and recovers on the next line', () => {
    const d = new LineDecoder(50);
    const big = `{"type":"control_request","request_id":"r1","pad":"${'x'.repeat(200)}"}`;
    const out = [...d.push(big.slice(0, 30)), ...d.push(big.slice(30)), ...d.push('\n{"ok":1}\n')];
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({ kind: 'oversized', length: big.length });
    expect(out[0]?.kind === 'oversized' && out[0].prefix.startsWith('{"type":"control_request"')).toBe(true);
    expect(out[1]).toEqual({ kind: 'line', text: '{"ok":1}' });
  });

  it('property: any split of encoded messages yields the same messages', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { minLength: 1, maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (values, cuts) => {
          const wire = values.map(encodeLine).join('');
          const points = [...new Set(cuts.map((c) => c % (wire.length + 1)))].sort((a, b) => a - b);
          const d = new LineDecoder(1 << 20);
          const out: string[] = [];
          let prev = 0;
          for (const p of [...points, wire.length]) {
            out.push(...texts(d.push(wire.slice(prev, p))));
            prev = p;
          }
          out.push(...texts(d.end()));
          expect(out.map((t) => JSON.parse(t))).toEqual(values.map((v) => JSON.parse(JSON.stringify(v))));
        },
      ),
      { numRuns: 300 },
    );
  });
});
