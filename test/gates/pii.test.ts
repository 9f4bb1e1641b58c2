import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cnIdCheckChar, findPii, redactText } from '../../src/gates/index.js';

const body = '31010419880516002';
const ID = body + cnIdCheckChar(body);
const BAD_ID = body + (cnIdCheckChar(body) === '1' ? '2' : '1');

describe('findPii', () => {
  it.each([
    ['CN_RESIDENT_ID', `身份证号：${ID}`, ID],
    ['CN_MOBILE', '手机 +86 139-1234-5678 联系', '+86 139-1234-5678'],
    ['CN_MOBILE', '请拨13912345678', '13912345678'],
    ['CREDIT_CARD', 'card 4111 1111 1111 1111 on file', '4111 1111 1111 1111'],
    ['EMAIL_ADDRESS', 'mail li.na@corp.example.cn today', 'li.na@corp.example.cn'],
    ['IP_ADDRESS', 'host 192.168.10.7 down', '192.168.10.7'],
    ['IP_ADDRESS', 'v6 2001:db8::8a2e:370:7334 up', '2001:db8::8a2e:370:7334'],
    ['IBAN_CODE', 'pay DE89 3704 0044 0532 0130 00 now', 'DE89 3704 0044 0532 0130 00'],
    ['US_SSN', 'SSN 123-45-6789.', '123-45-6789'],
    ['PASSPORT', '护照号码 E12345678', 'E12345678'],
    ['PHONE_NUMBER', 'call (415) 555-0132 tomorrow', '(415) 555-0132'],
    ['DATE_TIME', 'born 1988-05-16 in', '1988-05-16'],
    ['STREET_ADDRESS', 'lives at 42 Maple Grove Road', '42 Maple Grove Road'],
  ])('%s in %j', (type, text, value) => {
    const f = findPii(text).find((x) => x.type === type);
    expect(f, JSON.stringify(findPii(text))).toBeDefined();
    expect(text.slice(f!.start, f!.end)).toBe(value);
  });

  it('a failed checksum lowers the tier but keeps the finding', () => {
    const good = findPii(`证件 ${ID}`)[0]!;
    const bad = findPii(`证件 ${BAD_ID}`)[0]!;
    expect(good.tier).toBe('high');
    expect(bad.type).toBe('CN_RESIDENT_ID');
    expect(bad.tier).toBe('low');
    expect(bad.score).toBeLessThan(good.score);
  });

  it('UnionPay prefix boosts a Luhn-failing card into the low tier instead of dropping it', () => {
    const f = findPii('卡号 6212 3456 7890 1235')[0];
    expect(f?.type).toBe('CREDIT_CARD');
    expect(f?.tier).toBe('low');
  });

  it('context words raise the score', () => {
    const plain = findPii('ref 139 1234 5678')[0]!;
    const ctx = findPii('手机号码 139 1234 5678')[0]!;
    expect(ctx.score).toBeGreaterThan(plain.score);
  });
});

describe('UUIDs are ids, not card or phone numbers', () => {
  // Random v4 ids whose digit runs pass for a Luhn-valid card (one in ~270 does).
  const ids = ['0e38e7c3-f542-443d-b508-499703819eee', '53636186-3350-4e74-a5aa-7984880d7c61'];

  it.each(ids)('a ticket id %s is left as it is', (id) => {
    const text = `your request was recorded as ticket ${id}.`;
    expect(findPii(text)).toEqual([]);
    expect(redactText(text, 'L1').text).toBe(text);
  });

  it('a card beside a UUID is still found, at its own offsets', () => {
    const text = `ticket ${ids[1]}: card 4111 1111 1111 1111 on file`;
    const f = findPii(text).find((x) => x.type === 'CREDIT_CARD');
    expect(f).toBeDefined();
    expect(text.slice(f!.start, f!.end)).toBe('4111 1111 1111 1111');
  });

  it('no random UUID reads as personal data (property)', () => {
    fc.assert(
      fc.property(fc.uuid(), (id) => {
        expect(findPii(`ticket ${id} opened`)).toEqual([]);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('redactText by viewer level', () => {
  const text = `客户张三，手机13912345678，身份证${ID}，邮箱zs@corp.example`;
  it('L1 sees neither contact data nor identifiers', () => {
    const r = redactText(text, 'L1');
    expect(r.text).not.toContain('13912345678');
    expect(r.text).not.toContain(ID);
    expect(r.text).not.toContain('zs@corp.example');
    expect(r.text).toContain('5678');
  });
  it('L3 sees contact data but not identifiers', () => {
    const r = redactText(text, 'L3');
    expect(r.text).toContain('13912345678');
    expect(r.text).not.toContain(ID);
  });
  it('L4 sees everything', () => {
    expect(redactText(text, 'L4').text).toBe(text);
  });
  it('policy is configurable', () => {
    expect(redactText(text, 'L3', { policy: { CN_MOBILE: 'L4' } }).text).not.toContain('13912345678');
  });
});
