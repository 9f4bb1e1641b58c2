/**
 * A deliberately simple personal-data check for text that crosses between lines. It is a tripwire
 * against a line pasting raw records into a summary, not a PII detector (that lives in gates/):
 * when in doubt it refuses, and the publishing line writes a vaguer summary. Identity numbers and
 * card numbers must pass their check digits, so order numbers and other long ids are not mistaken
 * for them.
 */
import { maskUuids } from '../core/index.js';

type Detector = (text: string) => boolean;

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/u;
// mainland mobile, optionally +86; digits not embedded in a longer number
const CN_MOBILE = /(?<!\d)(?:\+?86[-\s]?)?1[3-9]\d[-\s]?\d{4}[-\s]?\d{4}(?!\d)/;
// international (+ and 8+ digits) or landline with area code (010-12345678)
const PHONE = /\+\d[\d\s-]{7,}\d|(?<!\d)0\d{2,3}-\d{7,8}(?!\d)/;
const US_SSN = /(?<!\d)\d{3}-\d{2}-\d{4}(?!\d)/;
const CN_ID = /(?<![\dA-Za-z])\d{17}[\dXx](?![\dA-Za-z])/g;
const CARD = /(?<!\d)(?:\d[ -]?){12,18}\d(?!\d)/g;

/** ISO 7064 MOD 11-2 check character of an 18-digit resident identity number. */
function validCnId(id: string): boolean {
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(id[i]) * weights[i]!;
  return '10X98765432'[sum % 11] === id[17]!.toUpperCase();
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const anyMatch =
  (re: RegExp, valid: (m: string) => boolean): Detector =>
  (text) =>
    [...text.matchAll(re)].some((m) => valid(m[0]));

const DETECTORS: ReadonlyArray<readonly [string, Detector, { inIds: boolean }]> = [
  ['email', (t) => EMAIL.test(t), { inIds: true }],
  ['cn-mobile', (t) => CN_MOBILE.test(t), { inIds: true }],
  ['phone', (t) => PHONE.test(t), { inIds: true }],
  ['us-ssn', (t) => US_SSN.test(t), { inIds: true }],
  ['cn-id', anyMatch(CN_ID, validCnId), { inIds: true }],
  // a Luhn-valid long number inside an id is common enough (one in ten) that ids skip this one
  ['card', anyMatch(CARD, (m) => luhn(m.replace(/\D/g, ''))), { inIds: false }],
];

/** Names of the personal-data patterns found in `text` (empty when none). `asId` relaxes the card check. */
export function findPersonalData(text: string, options: { asId?: boolean } = {}): string[] {
  // Task, session and audit ids are UUIDs: their digit runs are not phone or card numbers.
  const masked = maskUuids(text);
  return DETECTORS.filter(([, detect, scope]) => (!options.asId || scope.inIds) && detect(masked)).map(
    ([name]) => name,
  );
}

/** True when text looks like a serialised record rather than prose: JSON objects/arrays, key=value runs. */
export function looksLikeSerializedRecord(text: string): boolean {
  if (/[{[]\s*"/.test(text)) return true;
  if ((text.match(/"\s*:/g) ?? []).length >= 2) return true;
  if ((text.match(/\b\w+\s*[=:]\s*[^\s,;]+[,;]/g) ?? []).length >= 3) return true;
  return text.split('\n').length > 3;
}
