import { createDecipheriv, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeWatermark,
  embedWatermark,
  findBoundaries,
  isJsonDocument,
  packWatermark,
  scanText,
  stripWatermark,
  tenantWatermarkKeys,
  type Watermark,
  watermarkModeFor,
  watermarkToken,
} from '../../src/gates/index.js';
import { route } from '../../src/router/index.js';

const key = 'test-deployment-key-1';
const TENANTS = ['globex', 'acme', 'initech'];
const wm: Watermark = {
  tenant: 'acme',
  user: 'alice',
  session: '0f8fad5b-d9cb-469f-a165-70867728950e',
  channel: 'api',
};
const decode = (text: string, tenants: readonly string[] = TENANTS, k = key) =>
  decodeWatermark(text, { key: k, tenants });

/** A watermark character: the Variation Selectors Supplement. */
const isMark = (cp: number) => cp >= 0xe0100 && cp <= 0xe01ef;
const markCount = (s: string) => [...s].filter((c) => isMark(c.codePointAt(0)!)).length;

// Fixture answers written for this test (English, Chinese, mixed, Markdown).
const EN = [
  'The quarterly review shows strong growth in the east region.',
  'Renewals rose by 12%, mostly from two large accounts.',
  'The west region is flat; the south needs more investment before May.',
  'Ticket TCK-447ff2d4 tracks the follow-up, due on 2026-12-04.',
  'See https://intranet.example.com/reports/q4?view=full for the figures.',
  'Next steps: refresh the renewal templates, then brief the sales team.',
].join(' ');
const ZH = [
  '本季度销售额同比增长12%，其中华东区贡献最大。',
  '建议下季度加大对华南渠道的投入，并在五月前完成新品发布的准备工作。',
  '工单TCK-447ff2d4已创建，负责人是王伟。',
  '西区业绩持平；北区需要更多支持。',
  '下周一上午十点召开复盘会，请提前准备材料！',
  '如有问题，请联系财务部。',
].join('');
const MD = [
  '# Q4 summary',
  '',
  '- East grew 12%, driven by renewals.',
  '- West is flat.',
  '',
  'Run `twinline eval eval/office --json` to check, then compare.',
  '',
  '```json',
  '{"region": "east", "growth": 0.12}',
  '```',
  '',
  'Questions? Ask in the channel.',
].join('\n');

/**
 * Sentences of a fixture (its own punctuation), as [start, end) of the ORIGINAL text; lines of
 * a code block are no sentences (code carries no mark).
 */
function sentences(text: string): [number, number][] {
  const out: [number, number][] = [];
  const re = /[^.!?。！？\n]+(?:[.!?](?=\s|$)|[。！？]|\n|$)/g;
  const code = [...text.matchAll(/```[\s\S]*?```/g)].map((m) => [m.index!, m.index! + m[0].length]);
  for (const m of text.matchAll(re)) {
    if (code.some(([a, b]) => m.index! >= a! && m.index! < b!)) continue;
    let a = m.index!;
    let b = a + m[0].length;
    while (a < b && /\s/.test(text[a]!)) a++;
    while (b > a && /\s/.test(text[b - 1]!)) b--;
    if (b - a > 3) out.push([a, b]);
  }
  return out;
}

/** k consecutive sentences of the marked text, as a person's selection takes them (whole graphemes). */
function excerpts(original: string, marked: string, k: number): string[] {
  const map: number[] = [];
  let j = 0;
  for (let i = 0; i < original.length; i++) {
    while (marked[j] !== original[i]) j++;
    map.push(j++);
  }
  const s = sentences(original);
  const out: string[] = [];
  for (let i = 0; i + k <= s.length; i++) {
    let to = map[s[i + k - 1]![1] - 1]! + 1;
    while (to < marked.length && isMark(marked.codePointAt(to)!)) to += 2;
    out.push(marked.slice(map[s[i]![0]]!, to));
  }
  return out;
}

describe('watermarks: encrypted, authenticated, per tenant', () => {
  it('round-trips, and stripping restores the text exactly', () => {
    for (const text of [EN, ZH, MD]) {
      const marked = embedWatermark(text, wm, { key });
      expect(marked).not.toBe(text);
      expect(stripWatermark(marked)).toBe(text);
      expect(decode(marked)).toMatchObject(wm);
    }
  });

  it('non-UUID sessions and unicode fields round-trip', () => {
    const w = { tenant: '租户甲', user: 'bob@corp', session: 'sess-42', channel: 'im' };
    expect(decode(embedWatermark(EN, w, { key }), ['租户甲'])).toMatchObject(w);
  });

  it('without the key — or with only other tenants’ keys — nothing decodes, and nothing is readable', () => {
    const marked = embedWatermark(EN, wm, { key });
    expect(decode(marked, TENANTS, 'another-deployment')).toBeUndefined();
    expect(decode(marked, ['globex', 'initech'])).toBeUndefined();
    expect(decode(stripWatermark(marked))).toBeUndefined();
    // The sealed bytes carry no field in clear, and differ between sessions of the same user.
    const sealed = Buffer.from(packWatermark(wm, { key }));
    for (const field of ['acme', 'alice', 'api', '0f8fad5b', '70867728950e'])
      expect(sealed.includes(Buffer.from(field))).toBe(false);
    expect(sealed.includes(Buffer.from('0f8fad5bd9cb469fa16570867728950e', 'hex'))).toBe(false);
    const other = Buffer.from(
      packWatermark({ ...wm, session: '1f8fad5b-d9cb-469f-a165-70867728950e' }, { key }),
    );
    expect(other.equals(sealed)).toBe(false);
  });

  it('is exactly SIV over HMAC-SHA256 and AES-256-CTR with the tenant’s HKDF keys (checked with node:crypto)', () => {
    const sealed = Buffer.from(packWatermark(wm, { key }));
    const keys = tenantWatermarkKeys(key, 'acme');
    const iv = sealed.subarray(0, 8);
    const counter = Buffer.concat([iv, Buffer.alloc(8)]);
    const d = createDecipheriv('aes-256-ctr', keys.enc, counter);
    const plain = Buffer.concat([d.update(sealed.subarray(8)), d.final()]);
    expect(createHmac('sha256', keys.mac).update(plain).digest().subarray(0, 8).equals(iv)).toBe(true);
    expect(plain.includes(Buffer.from('alice'))).toBe(true);
    // Other tenants' keys are other keys.
    expect(tenantWatermarkKeys(key, 'globex').enc.equals(keys.enc)).toBe(false);
  });

  it('property: any change of one symbol of a frame is rejected, never misread', () => {
    const marked = embedWatermark('A short answer.', wm, { key });
    const chars = [...marked];
    const positions = chars.map((c, i) => (isMark(c.codePointAt(0)!) ? i : -1)).filter((i) => i >= 0);
    fc.assert(
      fc.property(fc.constantFrom(...positions), fc.integer({ min: 0xe0100, max: 0xe01ef }), (pos, cp) => {
        if (chars[pos]!.codePointAt(0) === cp) return true;
        const copy = [...chars];
        copy[pos] = String.fromCodePoint(cp);
        const got = decode(copy.join(''));
        return got === undefined || JSON.stringify(got).includes('"user":"alice"');
      }),
      { numRuns: 300 },
    );
  });

  it('the token form decodes the same way and is opaque', () => {
    const token = watermarkToken(wm, { key });
    expect(token).toMatch(/^twm2\.[A-Za-z0-9_-]+$/);
    expect(token).not.toMatch(/acme|alice|api/);
    expect(decode(`{"answer": 42, "watermark": "${token}"}`)).toMatchObject(wm);
    expect(decode(token, ['globex'])).toBeUndefined();
  });
});

describe('watermarks: a leaked excerpt still decodes', () => {
  it('every excerpt of two or four consecutive sentences decodes (English, Chinese, Markdown)', () => {
    for (const text of [EN, ZH, MD]) {
      const marked = embedWatermark(text, wm, { key });
      for (const k of [2, 4]) {
        const all = excerpts(text, marked, k);
        expect(all.length).toBeGreaterThan(0);
        for (const e of all)
          expect({ k, excerpt: stripWatermark(e), found: decode(e)?.user }).toEqual({
            k,
            excerpt: stripWatermark(e),
            found: 'alice',
          });
      }
    }
  });

  it('survives re-wrapping and collapsed whitespace', () => {
    const marked = embedWatermark(EN, wm, { key });
    expect(decode(marked.replace(/ /g, '\n  '))).toMatchObject(wm);
    expect(decode(marked.replace(/\s+/g, ' '))).toMatchObject(wm);
  });

  it('a text with one place for a mark (a gap between two words) still carries a whole frame there', () => {
    const one = 'Created ticket TCK-447ff2d4';
    const marked = embedWatermark(one, wm, { key });
    expect(decode(marked)).toMatchObject(wm);
    // Right after the space: both words keep their characters, the id what follows it.
    expect(marked.startsWith('Created ticket ')).toBe(true);
    expect(marked.endsWith('TCK-447ff2d4')).toBe(true);
  });
});

describe('watermarks do not break text', () => {
  it('a JSON answer is left untouched (its mark travels as a token beside it)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const marked = embedWatermark(text, wm, { key });
        // Objects and arrays are left alone; a bare JSON string/number is prose-like, but still parses.
        return (
          JSON.stringify(JSON.parse(marked)) === JSON.stringify(JSON.parse(text)) &&
          (!isJsonDocument(text) || marked === text)
        );
      }),
      { numRuns: 300 },
    );
    expect(embedWatermark('{"a": "b. c, d", "n": 1.5}', wm, { key })).toBe('{"a": "b. c, d", "n": 1.5}');
    expect(embedWatermark('{"a":1}\n{"b":"x. y"}\n', wm, { key })).toBe('{"a":1}\n{"b":"x. y"}\n');
  });

  // Texts built from what answers are made of: words, numbers, ids, URLs, e-mail addresses, CJK
  // phrases, code spans, punctuation, spaces and line breaks.
  const piece = fc.oneof(
    fc.constantFrom('growth', 'region', 'Renewal', 'east', 'q4', 'e.g.', 'Dr.', 'OK'),
    fc.constantFrom('12%', '3.14', '1,200', '2026-12-04', '-7', '0.5x', '42'),
    fc.stringMatching(/^TCK-[0-9a-f]{8}$/),
    fc.constantFrom(
      'https://x.example.com/a/b?c=1,2',
      'www.example.org/p',
      'ops@acme.example',
      '/var/log/app.log',
    ),
    fc.constantFrom('本季度', '华东区', '贡献最大', '王伟', '准备工作'),
    fc.constantFrom('`a.b, c`', '`x = 1. y = 2.`'),
  );
  const sep = fc.constantFrom(
    ' ',
    ' ',
    ', ',
    '. ',
    '; ',
    ': ',
    '! ',
    '? ',
    '\n',
    '。',
    '，',
    '、',
    '：',
    '！',
    '',
    ' (',
    ') ',
  );
  const textArb = fc
    .array(fc.tuple(piece, sep), { minLength: 1, maxLength: 30 })
    .map((parts) => parts.map(([p, s]) => p + s).join(''));

  /** Tokens as a search engine would see them: runs of non-space, cut after CJK punctuation. */
  const tokens = (t: string) =>
    t
      .split(/\s+/)
      .flatMap((w) => w.split(/(?<=[。，、；：！？…．」』】》〉）”’])/))
      .filter((w) => w.length > 0);

  it('property: every token of the original is a substring of the marked text; stripping restores it', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const marked = embedWatermark(text, wm, { key });
        return stripWatermark(marked) === text && tokens(text).every((t) => marked.includes(t));
      }),
      { numRuns: 500 },
    );
  });

  it('property: a mark never follows a letter, a digit or an ideograph, nor sits in code, a URL or an address', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const marked = embedWatermark(text, wm, { key });
        const cps = [...marked];
        for (let i = 0; i < cps.length; i++) {
          if (!isMark(cps[i]!.codePointAt(0)!)) continue;
          if (i > 0 && isMark(cps[i - 1]!.codePointAt(0)!)) continue;
          const before = cps[i - 1] ?? '';
          if (/[\p{L}\p{N}\p{Ideographic}]/u.test(before)) return false;
        }
        // Code spans, URLs, addresses and paths come through byte for byte, with the character after them.
        for (const m of text.matchAll(
          /`[^`]*`|https?:\/\/[^\s。，、：！`]+|www\.[^\s。，、：！`]+|[\w.+-]+@[\w.-]+|\/var\/[\w./-]+/g,
        )) {
          if (!marked.includes(m[0] + (text[m.index! + m[0].length] ?? ''))) return false;
        }
        return true;
      }),
      { numRuns: 500 },
    );
  });

  it('ids and numbers are followed by what followed them: copying `TCK-447ff2d4` copies just that', () => {
    const text = 'Ticket TCK-447ff2d4 is open. Total 1,200.50 CNY; rate 3.5%.';
    const marked = embedWatermark(text, wm, { key });
    expect(marked).toContain('TCK-447ff2d4 is');
    expect(marked).toContain('1,200.50 CNY');
    expect(marked).toContain('3.5%.');
    expect(/TCK-[0-9a-f]+\b/.exec(marked)?.[0]).toBe('TCK-447ff2d4');
  });

  it('code blocks, inline code and indented code carry no mark', () => {
    const marked = embedWatermark(MD, wm, { key });
    expect(marked).toContain('```json\n{"region": "east", "growth": 0.12}\n```');
    expect(marked).toContain('`twinline eval eval/office --json`');
    expect(markCount(embedWatermark('    x = 1. y = 2.\n    z = 3.', wm, { key }))).toBe(0);
  });

  it('a single token is left alone: there is no boundary to put a mark at', () => {
    for (const t of ['OK', 'TCK-447ff2d4', '42', 'https://x.example.com/a.']) {
      expect(embedWatermark(t, wm, { key })).toBe(t);
      expect(findBoundaries(t).positions).toEqual([]);
    }
  });

  it('keeps a text’s own ideographic variation selectors when stripping', () => {
    const ivs = '葛\u{E0100}城市。';
    expect(stripWatermark(embedWatermark(ivs, wm, { key }))).toBe(ivs);
  });

  it('the input gate and the router read a pasted answer like the plain text', () => {
    const q = '帮我查一下本周的日程安排，谢谢。';
    const marked = embedWatermark(q, wm, { key });
    expect(scanText(marked).verdict).toBe(scanText(q).verdict);
    expect(route(marked).target).toBe(route(q).target);
    expect(scanText(embedWatermark('Please book room 3 for Monday.', wm, { key })).verdict).toBe('pass');
  });
});

describe('the per-channel switch', () => {
  it('defaults to text, and a channel may say field or off', () => {
    expect(watermarkModeFor(undefined, 'api')).toBe('text');
    const s = { default: 'field' as const, channels: { api: 'text' as const, cli: 'off' as const } };
    expect(watermarkModeFor(s, 'api')).toBe('text');
    expect(watermarkModeFor(s, 'cli')).toBe('off');
    expect(watermarkModeFor(s, 'sse')).toBe('field');
    // Not an inherited property: a channel called "constructor" is just unlisted.
    expect(watermarkModeFor(s, 'constructor')).toBe('field');
  });
});
