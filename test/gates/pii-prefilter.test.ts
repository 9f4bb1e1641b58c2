import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PII_RECOGNISERS, textProfile } from '../../src/gates/output/pii/recognisers.js';

// Pieces the recognisers are made of, so that generated texts actually match them.
const PIECES = [
  '0',
  '1',
  '13',
  '138',
  '2026',
  '4111',
  '1111',
  '62',
  '110101199003078515',
  '13812345678',
  '-',
  ' ',
  '.',
  ':',
  '::',
  '/',
  '@',
  'a',
  'Z',
  'alice',
  'example.com',
  'mail',
  'DE',
  'GB82',
  'E',
  'G',
  'P',
  'Main',
  'Street',
  'Ave',
  'Berlinstrasse',
  'Mr. ',
  'Dr ',
  'Smith',
  'John',
  'name: ',
  'regards, ',
  'by ',
  'and ',
  'Jan',
  'march ',
  'st',
  'am',
  'pm',
  'in ',
  'since ',
  '年',
  '月',
  '日',
  '号',
  '路',
  '北京市',
  '朝阳区',
  '建国',
  '姓名',
  '联系人',
  '：',
  '张三',
  '室',
  '(',
  ')',
  '+86',
  'x',
  'ext.',
  '\n',
];

describe('PII recogniser pre-filter', () => {
  it('every match of a recogniser is in a text its pre-filter admits', () => {
    let matched = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 16 }), (parts) => {
        const text = parts.join('');
        const profile = textProfile(text);
        for (const rec of PII_RECOGNISERS) {
          const re = new RegExp(rec.pattern.source, rec.pattern.flags);
          if (re.test(text)) {
            matched++;
            expect(
              rec.needs(profile),
              `${rec.type} ${re.source.slice(0, 40)} on ${JSON.stringify(text)}`,
            ).toBe(true);
          }
        }
      }),
      { numRuns: 3000 },
    );
    expect(matched).toBeGreaterThan(300);
  });

  it('admits every recogniser on its own examples and none on plain prose', () => {
    const none = textProfile('本周有 3 个会议。');
    expect(PII_RECOGNISERS.filter((r) => r.needs(none))).toEqual([]);
    const examples = [
      '身份证 110101199003078515',
      '手机 13812345678',
      'card 4111 1111 1111 1111',
      'alice@example.com',
      'server 10.0.0.1',
      'GB82WEST12345698765432',
      'ssn 078-05-1120',
      'passport E12345678',
      'call 020 7946 0958',
      '2026-11-23',
      'since 1999',
      '221 Baker Street',
      'dear Holmes',
      '姓名：张三',
      'meeting with John Smith',
    ];
    for (const text of examples) {
      const p = textProfile(text);
      expect(
        PII_RECOGNISERS.some((r) => r.needs(p) && new RegExp(r.pattern.source, r.pattern.flags).test(text)),
      ).toBe(true);
    }
  });
});
