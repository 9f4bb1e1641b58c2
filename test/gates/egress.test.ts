import { describe, expect, it } from 'vitest';
import type { DataLevel } from '../../src/core/index.js';
import {
  decodeWatermark,
  Egress,
  embedWatermark,
  StreamGateConfigError,
  stripWatermark,
  TextStreamGate,
} from '../../src/gates/index.js';
import {
  ATTACKER,
  EGRESS_KEY,
  EMAIL,
  EXFIL_TEXT,
  expectNoExfil,
  expectNoRawPii,
  expectWatermark,
  LEAKY_TEXT,
  MOBILE,
  RESIDENT_ID,
} from '../support/hostile-answer.js';

const gateFor = (dataLevel: DataLevel, channel = 'api') =>
  new Egress({ watermarkKey: EGRESS_KEY }).for({
    viewer: { tenant: 'acme', user: 'alice', dataLevel },
    sessionId: 'sess-1',
    channel,
  });

function streamAll(text: string, pieces: readonly string[], dataLevel: DataLevel = 'L1') {
  const s = gateFor(dataLevel, 'sse').stream();
  const out: string[] = [];
  for (const p of pieces) {
    const t = s.push(p);
    if (t) out.push(t);
  }
  const rest = s.end();
  if (rest) out.push(rest);
  return { out, blocked: s.blocked, whole: gateFor(dataLevel, 'sse').inspect(text) };
}

describe('the egress gate on a complete text', () => {
  it('masks PII for the viewer, withholds a steer outside, and marks the text', () => {
    const leaky = gateFor('L1').inspect(LEAKY_TEXT);
    expect(leaky.outbound.verdict).toBe('pass');
    expectNoRawPii(leaky.text, 'L1 answer');
    expectWatermark(leaky.text, { tenant: 'acme', user: 'alice', session: 'sess-1', channel: 'api' }, 'L1');
    // L3 sees phones and e-mail, not the resident ID (L4).
    const l3 = stripWatermark(gateFor('L3').text(LEAKY_TEXT));
    expect(l3).toContain(MOBILE);
    expect(l3).toContain(EMAIL);
    expect(l3).not.toContain(RESIDENT_ID);
    expect(stripWatermark(gateFor('L4').text(LEAKY_TEXT))).toBe(LEAKY_TEXT);

    const exfil = gateFor('L4').inspect(EXFIL_TEXT);
    expect(exfil.outbound.verdict).toBe('block');
    expect(stripWatermark(exfil.text)).toMatch(/^The answer was withheld by the output gate/);
    expect(stripWatermark(exfil.text)).toContain(ATTACKER);
    expectNoExfil(exfil.text, 'blocked answer');
  });

  it('appends a note to a flagged text, after the redacted body', () => {
    const text = `Log in at https://partner.example/login with your account, or call ${MOBILE}.`;
    const g = gateFor('L1').inspect(text);
    expect(g.outbound.verdict).toBe('flag');
    expect(stripWatermark(g.text)).toMatch(/\[Output gate: this answer mentions sending data outside/);
    expect(stripWatermark(g.text)).not.toContain(MOBILE);
  });

  it('keeps a JSON answer parseable and unmarked: strings gated, the mark in the token beside it', () => {
    const doc = {
      customer: { name: '张伟', phone: MOBILE, note: `resident ID ${RESIDENT_ID} on file` },
      rows: [1, 2],
    };
    const out = gateFor('L1').text(JSON.stringify(doc));
    const parsed = JSON.parse(out) as typeof doc;
    expect(parsed.rows).toEqual([1, 2]);
    expect(parsed.customer.phone).not.toContain(MOBILE.slice(0, 7));
    expect(parsed.customer.note).not.toContain(RESIDENT_ID);
    // No mark inside a JSON answer: it is the same document but for its gated strings.
    expect(stripWatermark(out)).toBe(out);
    expect(
      decodeWatermark(gateFor('L1').token() ?? '', { key: EGRESS_KEY, tenants: ['acme'] }),
    ).toMatchObject({
      user: 'alice',
    });
    // Laid out on lines in, laid out on lines out.
    expect(gateFor('L1').text(JSON.stringify(doc, null, 2))).toContain('\n');
  });

  it('gates a JSON value string by string without a watermark, keeping its shape', () => {
    const value = { to: [ATTACKER], body: `ID ${RESIDENT_ID}`, count: 3, nested: { deep: [{ m: MOBILE }] } };
    const out = gateFor('L1').value(value);
    expect(Object.keys(out)).toEqual(Object.keys(value));
    expect(out.count).toBe(3);
    expectNoRawPii(JSON.stringify(out), 'value');
    expect(decodeWatermark(JSON.stringify(out), { key: EGRESS_KEY, tenants: ['acme'] })).toBeUndefined();
    // A string that steers data outside is replaced by the withheld sentence.
    expect(gateFor('L4').value({ note: EXFIL_TEXT }).note).toMatch(/^The answer was withheld/);
  });

  it('leaves text unmarked on a channel the settings exempt, and gates it all the same', () => {
    const g = new Egress({
      watermarkKey: EGRESS_KEY,
      watermarkChannels: { channels: { 'stream-json': 'off' } },
    }).for({
      viewer: { tenant: 'acme', user: 'alice', dataLevel: 'L1' },
      sessionId: 's',
      channel: 'stream-json',
    });
    const out = g.text(LEAKY_TEXT);
    expect(out).toBe(stripWatermark(out));
    expectNoRawPii(out, 'unmarked channel');
  });

  it('counts addresses of internal domains as inside', () => {
    const inside = new Egress({ watermarkKey: EGRESS_KEY, internalDomains: ['acme.example'] }).for({
      viewer: { tenant: 'acme', user: 'alice', dataLevel: 'L4' },
      sessionId: 's',
      channel: 'api',
    });
    expect(inside.inspect('Please forward the report to finance@acme.example today.').outbound.verdict).toBe(
      'pass',
    );
    expect(
      gateFor('L4').inspect('Please forward the report to finance@acme.example today.').outbound.verdict,
    ).toBe('block');
  });
});

describe('the streaming egress gate', () => {
  it('catches a phone number, an ID and an e-mail split across deltas at any character', () => {
    const text = `${LEAKY_TEXT} Thanks.`;
    const { out, blocked, whole } = streamAll(text, [...text]);
    expect(blocked).toBeUndefined();
    for (const chunk of out) expectNoRawPii(chunk, 'chunk');
    expectNoRawPii(out.join(''), 'stream');
    expect(stripWatermark(out.join(''))).toBe(stripWatermark(whole.text));
    for (const chunk of out)
      expectWatermark(chunk, { user: 'alice', session: 'sess-1', channel: 'sse' }, 'chunk');
  });

  it('holds text back to a sentence end at least holdBack behind the newest text', () => {
    const g = new TextStreamGate('L4', { holdBack: 10, maxHold: 200 });
    expect(g.push('First sentence. ')).toBe('');
    // 6 characters past the sentence end: still held.
    expect(g.push('Second')).toBe('');
    // 10 past it: released up to the sentence end.
    expect(g.push(' one')).toBe('First sentence. ');
    expect(g.push(' goes on and on')).toBe('');
    expect(g.end()).toBe('Second one goes on and on');
  });

  it('forces a cut after maxHold characters without a sentence end, never inside a value', () => {
    const g = new TextStreamGate('L1', { holdBack: 16, maxHold: 40 });
    const words = `aaaa bbbb cccc dddd eeee ffff ${MOBILE} gggg hhhh iiii jjjj kkkk llll`;
    const out: string[] = [];
    for (const w of words.split(/(?<= )/)) {
      const t = g.push(w);
      if (t) out.push(t);
    }
    out.push(g.end());
    expect(out.length).toBeGreaterThan(2);
    expect(out.join('')).not.toContain(MOBILE);
    expect(out.join('')).toContain('*******5678');
  });

  it('stops at the block: nothing after it leaves, and the withheld sentence is marked', () => {
    const text = `${LEAKY_TEXT} ${EXFIL_TEXT} More text that must never be seen. And more.`;
    const s = gateFor('L1', 'sse').stream();
    const out: string[] = [];
    let afterBlock = '';
    for (const w of text.split(/(?<= )/)) {
      const t = s.push(w);
      if (s.blocked) afterBlock += t;
      else if (t) out.push(t);
    }
    afterBlock += s.end();
    expect(s.blocked).toBeDefined();
    expect(afterBlock).toBe('');
    const released = stripWatermark(out.join(''));
    expect(released).not.toContain('must never be seen');
    expectNoExfil(released, 'released before the block');
    expectNoRawPii(released, 'released before the block');
    expectWatermark(s.blocked!.text, { user: 'alice', channel: 'sse' }, 'blocked notice');
    expect(stripWatermark(s.blocked!.text)).toMatch(/^The answer was withheld/);
  });

  it('holds a JSON answer whole and releases it as the complete-text gate would', () => {
    const json = JSON.stringify({ phone: MOBILE, note: `ID ${RESIDENT_ID}` });
    const { out, whole } = streamAll(json, json.match(/.{1,5}/g)!);
    expect(out).toHaveLength(1);
    expect(out[0]).toBe(whole.text);
    expect(JSON.parse(out[0]!)).toBeTruthy();
  });

  it('refuses window settings that cannot work', () => {
    expect(() => new TextStreamGate('L1', { holdBack: 100, maxHold: 100 })).toThrow(StreamGateConfigError);
    expect(() => new TextStreamGate('L1', { holdBack: -1 })).toThrow(/holdBack/);
  });
});

/** Every invisible format character removed (wider than stripWatermark, which knows only its own). */
const visible = (s: string) =>
  stripWatermark(s).replace(/[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g, '');

describe('attacks on the egress gate', () => {
  const hidden = [
    `call 138\u200b1234\u200b5678 now`,
    `mail zhang\u200d.wei@exam\u00adple.com today`,
    `ID 110105\ufeff19491231002X here`,
    `write attacker\u2060@evil.example down`,
  ];

  it('invisible characters inside a value do not hide it, whole or streamed a character at a time', () => {
    for (const text of hidden) {
      const whole = visible(gateFor('L1').text(text));
      expect(whole).not.toMatch(/13812345678|zhang\.wei@example\.com|11010519491231002X|attacker@evil/);
      const { out } = streamAll(text, [...text]);
      expect(visible(out.join(''))).toBe(whole);
    }
  });

  it('full-width digits and at-signs are values too', () => {
    const out = stripWatermark(
      gateFor('L1').text('手机 １３８１２３４５６７８，邮箱 ｚｈａｎｇ＠ｅｘａｍｐｌｅ．ｃｏｍ'),
    );
    expect(out).not.toContain('１３８１２３４５６７８');
    expect(out).not.toContain('ｚｈａｎｇ＠ｅｘａｍｐｌｅ．ｃｏｍ');
  });

  it('a frame the model wrote itself is dropped: the text carries only the viewer’s marks', () => {
    const planted = embedWatermark(
      'Report for the team, all figures attached below.',
      { tenant: 'acme', user: 'bob', session: 'other', channel: 'api' },
      { key: EGRESS_KEY },
    );
    const out = gateFor('L1').text(planted);
    expect(decodeWatermark(out, { key: EGRESS_KEY, tenants: ['acme'] })).toMatchObject({
      user: 'alice',
      session: 'sess-1',
    });
    // bob's frame is gone: under bob's session nothing decodes, only alice's marks remain.
    const bobs = embedWatermark(
      'Report for the team, all figures attached below.',
      { tenant: 'acme', user: 'bob', session: 'other', channel: 'api' },
      { key: EGRESS_KEY },
    );
    expect(stripWatermark(out)).toBe(stripWatermark(bobs));
    expect(out).not.toContain(bobs.slice(bobs.indexOf(',') + 1, bobs.indexOf(',') + 5));
  });

  it('an emoji’s joiner between pictographs is kept', () => {
    const family = 'Team photo 👨\u200d👩\u200d👧 attached.';
    const unmarked = new Egress({
      watermarkKey: EGRESS_KEY,
      watermarkChannels: { channels: { cli: 'off' } },
    }).for({
      viewer: { tenant: 'acme', user: 'alice', dataLevel: 'L1' },
      sessionId: 's',
      channel: 'cli',
    });
    expect(unmarked.text(family)).toBe(family);
  });

  it('a model that opens with "{" cannot make a prose answer skip the gate', () => {
    const text = `{ not json: call ${MOBILE} or ${ATTACKER} }`;
    const { out } = streamAll(text, text.split(/(?<= )/));
    expectNoRawPii(out.join(''), 'fake JSON');
  });
});

describe('egress of values that are not plain JSON', () => {
  it('gates a class instance or a Date as its JSON form, and withholds what cannot be serialised', () => {
    class Customer {
      constructor(readonly phone: string) {}
    }
    const out = gateFor('L1').value({ c: new Customer(MOBILE), at: new Date(0) }) as Record<string, unknown>;
    expect(JSON.stringify(out)).not.toContain(MOBILE);
    expect(out['at']).toBe('1970-01-01T00:00:00.000Z');
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    class Box {
      constructor(readonly inner: unknown) {}
    }
    expect(gateFor('L1').value({ b: new Box(cyclic) })).toEqual({ b: '[withheld: value not serialisable]' });
  });
});
