/**
 * Presidio-style PII recognisers: a pattern proposes a candidate, a validator (checksum or
 * structure) sets its confidence tier, and context words nearby raise the score. A failed
 * checksum LOWERS the score (low tier); it never erases the finding.
 */
import { cnResidentIdValid, ibanValid, ipv4Valid, ipv6Valid, luhnValid, usSsnValid } from './validators.js';

export const PII_TYPES = [
  'CN_RESIDENT_ID',
  'CN_MOBILE',
  'CREDIT_CARD',
  'EMAIL_ADDRESS',
  'IP_ADDRESS',
  'PASSPORT',
  'PHONE_NUMBER',
  'IBAN_CODE',
  'US_SSN',
  'DATE_TIME',
  'STREET_ADDRESS',
  'PERSON',
] as const;
export type PiiType = (typeof PII_TYPES)[number];

/** What a text contains, counted in one pass: enough to rule most recognisers out at once. */
export interface TextProfile {
  /** ASCII digits (what `\d` matches). */
  readonly digits: number;
  readonly at: boolean;
  readonly colon: boolean;
  /** ASCII letters, and ASCII capitals among them. */
  readonly letter: boolean;
  readonly upper: boolean;
  /** 号 (a Chinese street number), ：(a full-width colon, as after 姓名). */
  readonly hao: boolean;
  readonly wideColon: boolean;
}

export interface PiiRecogniser {
  readonly type: PiiType;
  /**
   * A necessary condition of any match of `pattern`: when it is false the pattern is not run.
   * It must hold for every text the pattern can match in (tests check it against the patterns).
   */
  readonly needs: (t: TextProfile) => boolean;
  readonly pattern: RegExp;
  /** Score for a candidate; `valid` undefined means the type has no validator. */
  readonly score: (match: string) => { score: number; valid?: boolean; reason: string };
  /** Words that, within ~40 characters before the match, make it more likely. */
  readonly context?: RegExp;
  /** Report the first capture group that matched instead of the whole match (cue words excluded). */
  readonly reportGroup?: boolean;
}

const CONTEXT_BOOST = 0.2;
export const CONTEXT_WINDOW = 40;
export { CONTEXT_BOOST };

export const PII_RECOGNISERS: readonly PiiRecogniser[] = [
  {
    type: 'CN_RESIDENT_ID',
    needs: (t) => t.digits >= 17,
    pattern:
      /(?<![\dA-Za-z])[1-9]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx](?![\dA-Za-z])/g,
    score: (m) =>
      cnResidentIdValid(m)
        ? { score: 0.95, valid: true, reason: 'resident ID with valid ISO 7064 MOD 11-2 check character' }
        : { score: 0.45, valid: false, reason: 'resident-ID shape, check character does not match' },
    context: /身份证|证件号|公民身份|id card|resident id|identity/i,
  },
  {
    type: 'CN_MOBILE',
    needs: (t) => t.digits >= 11,
    pattern: /(?<![\d+])(?:(?:\+|00)86[\s-]?)?1[3-9]\d(?:[\s-]?\d{4}){2}(?!\d)/g,
    score: () => ({ score: 0.75, reason: 'mainland mobile number (1[3-9] + 9 digits)' }),
    context: /手机|电话|联系|致电|号码|mobile|phone|tel|call/i,
  },
  {
    type: 'CREDIT_CARD',
    needs: (t) => t.digits >= 12,
    pattern: /(?<![\d-])(?:\d[ -]?){11,18}\d(?![\d-])/g,
    score: (m) => {
      const d = m.replace(/\D/g, '');
      const unionPay = d.startsWith('62') && d.length >= 16;
      if (luhnValid(d))
        return {
          score: unionPay ? 0.95 : 0.85,
          valid: true,
          reason: unionPay ? 'UnionPay card number (62…), Luhn valid' : 'card number, Luhn valid',
        };
      return {
        score: unionPay ? 0.5 : 0.2,
        valid: false,
        reason: unionPay ? 'UnionPay-shaped number, Luhn fails' : 'card-shaped number, Luhn fails',
      };
    },
    context: /card|visa|mastercard|amex|银行卡|信用卡|卡号|借记卡|储蓄卡|银联/i,
  },
  {
    type: 'EMAIL_ADDRESS',
    needs: (t) => t.at,
    pattern:
      /(?<![\w.+-])[A-Za-z0-9](?:[\w.+-]{0,62}[\w+-])?@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}(?![\w-])/g,
    score: () => ({ score: 0.95, reason: 'e-mail address' }),
  },
  {
    type: 'IP_ADDRESS',
    needs: (t) => t.digits >= 4 || t.colon,
    pattern:
      /(?<![\w.:])(?:\d{1,3}(?:\.\d{1,3}){3}|(?:[0-9a-fA-F]{1,4}:){1,7}(?::|(?::[0-9a-fA-F]{1,4}){1,7}|[0-9a-fA-F]{1,4})|::(?:[0-9a-fA-F]{1,4}:){0,6}[0-9a-fA-F]{1,4})(?![\w.:])/g,
    score: (m) => {
      const ok = m.includes(':') ? ipv6Valid(m) : ipv4Valid(m);
      return ok
        ? { score: 0.9, valid: true, reason: 'IP address' }
        : { score: 0.3, valid: false, reason: 'IP-shaped, out of range' };
    },
    context: /\bip\b|address|server|host|地址/i,
  },
  {
    type: 'IBAN_CODE',
    needs: (t) => t.letter && t.digits >= 2,
    pattern:
      /(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}(?:[A-Za-z0-9]{11,30}|(?:[ -][A-Za-z0-9]{4}){2,7}(?:[ -][A-Za-z0-9]{1,4})?)(?![A-Za-z0-9])/g,
    score: (m) =>
      ibanValid(m)
        ? { score: 0.95, valid: true, reason: 'IBAN, mod-97 check valid' }
        : { score: /\d{6}/.test(m) ? 0.3 : 0.1, valid: false, reason: 'IBAN-shaped, mod-97 check fails' },
    context: /iban|account|bank|transfer|账户|汇款/i,
  },
  {
    type: 'US_SSN',
    needs: (t) => t.digits >= 9,
    pattern: /(?<![\d-])\d{3}([- ])\d{2}\1\d{4}(?![\d-])/g,
    score: (m) =>
      usSsnValid(m)
        ? { score: 0.8, valid: true, reason: 'US SSN (area/group/serial rules pass)' }
        : { score: 0.35, valid: false, reason: 'SSN-shaped, invalid area/group/serial' },
    context: /ssn|social security|社会安全号/i,
  },
  {
    type: 'PASSPORT',
    needs: (t) => t.letter && t.digits >= 7,
    pattern: /(?<![A-Za-z0-9])(?:[EeGgDdSsPp]\d{8}|E[A-Za-z]\d{7}|[A-Z]\d{8})(?![A-Za-z0-9])/g,
    score: () => ({ score: 0.35, reason: 'passport-number shape' }),
    context: /护照|passport|旅行证件|travel document/i,
  },
  {
    type: 'PHONE_NUMBER',
    needs: (t) => t.digits >= 4,
    pattern:
      /(?<![\w+./:-])(?:\+\d{1,3}[\s.-]?)?(?:\(0?\d{1,4}\)[\s.-]?|\(0\)\d{1,4}[\s.-]?)?\d{2,5}(?:[\s.-]\d{2,5}){1,4}(?:\s?(?:x|ext\.?)\s?\d{1,5})?(?![\w/:-]|\.\d)|(?<![\w+])\(\d{3}\)\s?\d{3}-\d{4}(?!\d)/g,
    score: (m) => {
      const d = m.replace(/\D/g, '');
      if (d.length < 7 || d.length > 15) return { score: 0, reason: 'too few or many digits' };
      if (/^\d{4}[-./]\d{1,2}[-./]\d{1,2}$|^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$/.test(m))
        return { score: 0, reason: 'a date' };
      const strong = /^\+|\(/.test(m) || /^\d{3}[-.\s]\d{3}[-.\s]\d{4}$/.test(m);
      return { score: strong ? 0.6 : 0.45, reason: 'phone-number shape' };
    },
    context: /phone|call|tel|mobile|cell|fax|contact|reach|dial|电话|手机|联系/i,
  },
  {
    type: 'DATE_TIME',
    needs: (t) => t.digits >= 2,
    pattern:
      /(?<![\w./-])(?:\d{4}-\d{1,2}-\d{1,2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?|\d{1,2}\/\d{1,2}\/\d{2,4}|\d{4}\/\d{1,2}\/\d{1,2}|\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?,?\s+\d{4}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|(?:january|february|march|april|june|july|august|september|october|november|december)\s+\d{4}|\d{4}年\d{1,2}月(?:\d{1,2}日)?|\d{1,2}月\d{1,2}日|\d{1,2}:\d{2}(?::\d{2})?\s?(?:am|pm)?)(?![\w/-])/gi,
    score: () => ({ score: 0.6, reason: 'date or time' }),
  },
  {
    type: 'DATE_TIME',
    needs: (t) => t.digits >= 4,
    pattern:
      /\b(?:in|since|from|until|till|by|year|born|during|circa|of|before|after)\s+((?:19|20)\d{2})(?![\w/-])/gi,
    score: () => ({ score: 0.45, reason: 'a year after a time word' }),
    reportGroup: true,
  },
  {
    type: 'STREET_ADDRESS',
    needs: (t) => t.digits >= 1 && (t.upper || t.hao),
    pattern:
      /(?<![\w])\d{1,6}[A-Za-z]?\s+(?:[A-Z][\w'.-]*\s+){1,4}(?:Street|St|Avenue|Ave|Road|Rd|Drive|Dr|Lane|Ln|Boulevard|Blvd|Court|Ct|Way|Place|Pl|Terrace|Ter|Circle|Cir|Parkway|Pkwy|Highway|Hwy|Square|Sq|Trail|Trl|Loop|Alley|Row|Crescent|Close|Gardens|Hill|Park|Path|Pike|Plaza|Point|Ridge|Run|View|Walk)\b\.?(?:,?\s*(?:Apt|Apartment|Suite|Ste|Unit|#)\.?\s*\w+)?|(?<![\w])[A-Z][a-zà-ÿ]+(?:straat|strasse|straße|weg|laan|gasse|plein|katu|gatan|vej|veien|kuja|tie)\s+\d{1,5}\w?|(?:[\u4e00-\u9fa5]{2,8}(?:省|市|自治区))?[\u4e00-\u9fa5]{1,8}(?:市|区|县)[\u4e00-\u9fa5]{1,12}(?:路|街|道|巷|弄)\d{1,5}号(?:[\u4e00-\u9fa5\d]{0,10}(?:室|楼|单元|层))?/g,
    score: () => ({ score: 0.6, reason: 'street address shape' }),
    context: /address|live|located|street|地址|住址|住在/i,
  },
  {
    type: 'PERSON',
    needs: (t) => t.upper || t.colon || t.wideColon,
    pattern:
      /(?:\b(?:mr|mrs|ms|miss|dr|prof|sir|madam)\.?\s+|\b(?:my name is|name:|named|dear|regards,|sincerely,|signed,|thanks,|contact)\s+)([A-Z][a-zà-ÿ'’-]+(?:\s+[A-Z][a-zà-ÿ'’-]+){0,2})|(?:姓名|联系人|收件人|申请人|负责人)[:：]\s*([\u4e00-\u9fa5]{2,4})/g,
    score: () => ({ score: 0.5, reason: 'name after an honorific or name cue' }),
    reportGroup: true,
  },
  {
    // Two or three capitalised words mid-sentence that are not common capitalised non-names:
    // weak on its own (places and companies look the same), so it stays in the low tier.
    type: 'PERSON',
    needs: (t) => t.upper,
    pattern:
      /(?<=[a-z,;:]\s|\b(?:by|from|to|with|and|for|of|at|is|was|named|called|contact|ask|tell|meet|call|email)\s)((?!(?:The|This|That|Street|Road|Avenue|Drive|Lane|January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|North|South|East|West|New|San|Saint|St|Mount|Lake|Fort|Port|United|Republic|Kingdom|Company|Inc|Ltd|Bank|University|Hospital|Hotel)\b)[A-Z][a-zà-ÿ'’-]{1,20}\s+(?!(?:Street|Road|Avenue|Drive|Lane|Inc|Ltd|Bank|University|Hospital|Hotel|Company|City|County|Park)\b)[A-Z][a-zà-ÿ'’-]{1,20})(?![\w-])/g,
    score: () => ({ score: 0.35, reason: 'capitalised first/last-name shape' }),
    reportGroup: true,
  },
];

/** The profile of `text` that the recognisers' `needs` read. */
export function textProfile(text: string): TextProfile {
  let digits = 0;
  let at = false;
  let colon = false;
  let letter = false;
  let upper = false;
  let hao = false;
  let wideColon = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) digits++;
    else if (c >= 0x41 && c <= 0x5a) upper = letter = true;
    else if (c >= 0x61 && c <= 0x7a) letter = true;
    else if (c === 0x40) at = true;
    else if (c === 0x3a) colon = true;
    else if (c === 0x53f7) hao = true;
    else if (c === 0xff1a) wideColon = true;
  }
  return { digits, at, colon, letter, upper, hao, wideColon };
}
