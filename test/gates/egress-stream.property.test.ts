import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DataLevel } from '../../src/core/index.js';
import {
  cnIdCheckChar,
  decodeWatermark,
  dropHidingCharacters,
  Egress,
  type EgressGate,
  findBoundaries,
  redactText,
  stripWatermark,
} from '../../src/gates/index.js';

const KEY = 'egress-property-key';

/** A resident ID with a valid check character. */
function residentId(prefix17: string): string {
  return prefix17 + cnIdCheckChar(prefix17);
}

// Pieces an answer is made of: prose in both languages, sentence and line ends, and every kind of
// value the gate must catch — several of them written with inner spaces or after a cue word, so a
// delta boundary or a release cut can fall inside them — plus phrases the outbound classifier
// flags (an outside link next to a request to enter something) or blocks (send it outside).
const PROSE = [
  'The report is ready',
  'Revenue grew by 12 percent',
  'All three invoices were paid on time',
  '请查看附件',
  '本季度的销售额增长了',
  '会议改到下周三',
  'Contact',
  'call',
  'phone',
  '手机',
  '电话：',
  '身份证号',
  '2026-03-04',
  '😀',
];
const VALUES = [
  '联系人：张伟',
  'Dr. Wang',
  'Mr. Smith',
  'signed, Alice Martin',
  '13800138000',
  '138 0013 8000',
  '+86 139-1234-5678',
  residentId('11010519491231002'),
  residentId('44030619900307123'),
  'alice@example.com',
  'bob.li@acme.example',
  '4111 1111 1111 1111',
  'card 6222021234567890',
  'GB82 WEST 1234 5698 7654 32',
  '192.168.10.24',
  '(555) 123-4567',
  'passport E12345678',
  '12 34 56 78 90 12 34 56 78 90',
  '3f9c2b1e-4a5d-4e6f-8a7b-9c0d1e2f3a4b',
  '12 Main St. Apt 4',
  '北京市朝阳区建国路88号',
  // hidden by invisible or full-width characters, and an emoji whose joiners must stay
  '138\u200b1234\u200b5678',
  'zhang\u200d.wei@exam\u00adple.com',
  '１３８１２３４５６７８',
  '👨\u200d👩\u200d👧',
];
const OUTBOUND = [
  'forward this to attacker@evil.example',
  'please send the file to bob@outside.example',
  'upload it at https://evil.example/upload',
  '请把资料发送到 leak@evil.example',
  'enter your code in the form',
  'details are on https://partner.example/help',
  'see https://intranet.acme.example/wiki',
  'Log in at https://partner.example/login',
];
const GLUE = [' ', ' ', ' ', '. ', '。', '\n', ', ', '! ', ': ', '', '\n\n', '；'];

const pieceArb = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...PROSE) },
  { weight: 4, arbitrary: fc.constantFrom(...VALUES) },
  { weight: 1, arbitrary: fc.constantFrom(...OUTBOUND) },
);
const textArb = fc
  .array(fc.tuple(pieceArb, fc.constantFrom(...GLUE)), { minLength: 1, maxLength: 80, size: 'large' })
  .map((parts) => parts.map(([p, g]) => p + g).join(''));

/** Splits `text` at the given fractions, never inside a surrogate pair. */
function split(text: string, cuts: readonly number[]): string[] {
  const at = [
    ...new Set(
      cuts
        .map((c) => Math.floor(c * text.length))
        .map((i) => (i > 0 && /[\uDC00-\uDFFF]/.test(text[i] ?? '') ? i - 1 : i))
        .filter((i) => i > 0 && i < text.length),
    ),
  ].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const i of at) {
    out.push(text.slice(prev, i));
    prev = i;
  }
  out.push(text.slice(prev));
  return out;
}

function occurrences(text: string, value: string): number {
  let n = 0;
  for (let i = text.indexOf(value); i >= 0; i = text.indexOf(value, i + 1)) n++;
  return n;
}

function streamed(gate: EgressGate, deltas: readonly string[]) {
  const s = gate.stream();
  const chunks: string[] = [];
  let afterBlock = 0;
  for (const d of deltas) {
    const out = s.push(d);
    if (s.blocked && out) afterBlock++;
    if (out) chunks.push(out);
  }
  const rest = s.end();
  if (rest) chunks.push(rest);
  return { chunks, blocked: s.blocked, afterBlock };
}

const levelArb = fc.constantFrom<DataLevel>('L1', 'L2', 'L3', 'L4');
const holdArb = fc
  .integer({ min: 96, max: 160 })
  .chain((holdBack) =>
    fc.record({ holdBack: fc.constant(holdBack), maxHold: fc.integer({ min: holdBack + 1, max: 512 }) }),
  );

describe('the streaming egress gate releases what the whole-text gate releases', () => {
  it('for any split into deltas: same content (modulo watermark), same verdict, no hidden value in any chunk', () => {
    fc.assert(
      fc.property(
        textArb,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 60 }),
        levelArb,
        holdArb,
        (text, cuts, level, stream) => {
          const egress = new Egress({
            watermarkKey: KEY,
            internalDomains: ['acme.example'],
            stream,
          });
          const gate = egress.for({
            viewer: { tenant: 'acme', user: 'alice', dataLevel: level },
            sessionId: 's-1',
            channel: 'sse',
          });
          const whole = gate.inspect(text);
          const { chunks, blocked, afterBlock } = streamed(gate, split(text, cuts));
          expect(afterBlock).toBe(0);
          expect(blocked !== undefined).toBe(whole.outbound.verdict === 'block');
          const released = stripWatermark(chunks.join(''));
          if (whole.outbound.verdict !== 'block') {
            expect(released).toBe(stripWatermark(whole.text));
          } else {
            // Stopped: what left before the block is a prefix of the redacted text.
            expect(
              stripWatermark(redactText(dropHidingCharacters(text), level).text).startsWith(released),
            ).toBe(true);
          }
          // No value the whole-text gate hides appears raw in any chunk (a value it leaves in
          // place elsewhere — glued to a word, say — may appear as often as it does there).
          const plain = dropHidingCharacters(text);
          const redacted = redactText(plain, level);
          const reference = whole.outbound.verdict === 'block' ? redacted.text : stripWatermark(whole.text);
          for (const v of new Set(redacted.redacted.map((f) => plain.slice(f.start, f.end)))) {
            const inChunks = chunks.reduce((n, c) => n + occurrences(stripWatermark(c), v), 0);
            expect(inChunks).toBeLessThanOrEqual(occurrences(reference, v));
          }
          // Every released chunk carries an authentic watermark of this viewer and session —
          // unless the text itself holds the codec's own symbols (an emoji's joiner), which the
          // codec reads into a frame spread over it (a known limit of the watermark positions).
          if (/[\u200b-\u200d\u2060]/.test(plain)) return;
          for (const chunk of chunks) {
            // A chunk with no place a mark may stand (no punctuation, no word gap) carries none.
            if (findBoundaries(stripWatermark(chunk)).positions.length === 0) continue;
            expect(decodeWatermark(chunk, { key: KEY, tenants: ['acme'] })).toMatchObject({
              user: 'alice',
              session: 's-1',
            });
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('with the default window too, and one character per delta', () => {
    fc.assert(
      fc.property(textArb, levelArb, (text, level) => {
        const gate = new Egress({ watermarkKey: KEY }).for({
          viewer: { tenant: 'acme', user: 'bob', dataLevel: level },
          sessionId: 's-2',
          channel: 'sse',
        });
        const whole = gate.inspect(text);
        const { chunks, blocked } = streamed(gate, [...text]);
        expect(blocked !== undefined).toBe(whole.outbound.verdict === 'block');
        if (!blocked) expect(stripWatermark(chunks.join(''))).toBe(stripWatermark(whole.text));
      }),
      { numRuns: 150 },
    );
  });
});
