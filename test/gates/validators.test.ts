import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cnIdCheckChar,
  cnResidentIdValid,
  ibanValid,
  ipv4Valid,
  ipv6Valid,
  luhnValid,
  usSsnValid,
} from '../../src/gates/index.js';

describe('validators', () => {
  it('Chinese resident ID: ISO 7064 MOD 11-2 check character and a real date', () => {
    const body = '11010119900307123';
    const id = body + cnIdCheckChar(body);
    expect(cnResidentIdValid(id)).toBe(true);
    expect(cnResidentIdValid(id.slice(0, 17) + (id[17] === '0' ? '1' : '0'))).toBe(false);
    const feb31 = '11010119900231123';
    expect(cnResidentIdValid(feb31 + cnIdCheckChar(feb31))).toBe(false); // no 31 February
    expect(cnResidentIdValid('11010119900307123')).toBe(false);
  });

  it('an X check character is accepted in either case', () => {
    // find a body whose check char is X
    for (let n = 0; n < 1000; n++) {
      const body = `4403051985071${String(n).padStart(4, '0')}`;
      if (cnIdCheckChar(body) === 'X') {
        expect(cnResidentIdValid(`${body}X`)).toBe(true);
        expect(cnResidentIdValid(`${body}x`)).toBe(true);
        return;
      }
    }
    throw new Error('no X check char found');
  });

  it('property: changing any single digit of a valid ID breaks the check', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 16 }), fc.integer({ min: 1, max: 9 }), (pos, delta) => {
        const body = '32010219851224001';
        const id = body + cnIdCheckChar(body);
        const d = (Number(id[pos]) + delta) % 10;
        const changed = id.slice(0, pos) + d + id.slice(pos + 1);
        // changed date digits may also make the date invalid; either way it must not validate
        return !cnResidentIdValid(changed);
      }),
      { numRuns: 300 },
    );
  });

  it('Luhn', () => {
    expect(luhnValid('4111 1111 1111 1111')).toBe(true);
    expect(luhnValid('4111 1111 1111 1112')).toBe(false);
    expect(luhnValid('6212 3456 7890 1238')).toBe(luhnValid('6212345678901238'));
    expect(luhnValid('1234')).toBe(false);
  });

  it('IBAN mod-97', () => {
    expect(ibanValid('DE89 3704 0044 0532 0130 00')).toBe(true);
    expect(ibanValid('DE89 3704 0044 0532 0130 01')).toBe(false);
    expect(ibanValid('gb82west12345698765432')).toBe(true);
    expect(ibanValid('XX')).toBe(false);
  });

  it('US SSN structure', () => {
    expect(usSsnValid('123-45-6789')).toBe(true);
    expect(usSsnValid('000-45-6789')).toBe(false);
    expect(usSsnValid('666-45-6789')).toBe(false);
    expect(usSsnValid('912-45-6789')).toBe(false);
    expect(usSsnValid('123-00-6789')).toBe(false);
  });

  it('IP addresses', () => {
    expect(ipv4Valid('10.0.0.255')).toBe(true);
    expect(ipv4Valid('10.0.0.256')).toBe(false);
    expect(ipv6Valid('2001:db8::1')).toBe(true);
    expect(ipv6Valid('2001:db8:0:0:0:0:0:1')).toBe(true);
    expect(ipv6Valid('2001:db8::1::2')).toBe(false);
  });
});
