/**
 * A deliberately simple personal-data check for text that crosses between lines. It is a tripwire
 * against a line pasting raw records into a summary, not a PII detector (that lives in gates/):
 * when in doubt it refuses, and the publishing line writes a vaguer summary.
 */
const PATTERNS: ReadonlyArray<readonly [string, RegExp]> = [
  ['email', /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/u],
  // mainland mobile, optionally +86; digits not embedded in a longer number
  ['cn-mobile', /(?<!\d)(?:\+?86[-\s]?)?1[3-9]\d[-\s]?\d{4}[-\s]?\d{4}(?!\d)/],
  // international / landline style: + and 8+ digits, or groups like 010-12345678
  ['phone', /\+\d[\d\s-]{7,}\d|(?<!\d)0\d{2,3}-\d{7,8}(?!\d)/],
  // 18-digit resident identity number (last may be X), or 15-digit legacy form
  ['cn-id', /(?<![\dA-Za-z])\d{17}[\dXx](?![\dA-Za-z])|(?<!\d)\d{15}(?!\d)/],
  ['us-ssn', /(?<!\d)\d{3}-\d{2}-\d{4}(?!\d)/],
  // card-like: 13–19 digits, optionally grouped
  ['card', /(?<!\d)(?:\d[ -]?){12,18}\d(?!\d)/],
];

/** Names of the personal-data patterns found in `text` (empty when none). */
export function findPersonalData(text: string): string[] {
  return PATTERNS.filter(([, re]) => re.test(text)).map(([name]) => name);
}

/** True when text looks like a serialised record rather than prose: JSON objects/arrays, key=value runs. */
export function looksLikeSerializedRecord(text: string): boolean {
  if (/[{[]\s*"/.test(text)) return true;
  if ((text.match(/"\s*:/g) ?? []).length >= 2) return true;
  if ((text.match(/\b\w+\s*[=:]\s*[^\s,;]+[,;]/g) ?? []).length >= 3) return true;
  return text.split('\n').length > 3;
}
