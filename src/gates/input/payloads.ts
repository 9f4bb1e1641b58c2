/**
 * Encoded payloads hidden in text. URL escapes and HTML entities are decoded inline by the
 * normaliser; base64 cannot be (it changes length and alignment), so each plausible base64 run is
 * decoded here and scanned as its own text.
 */

export interface DecodedPayload {
  readonly start: number;
  readonly end: number;
  readonly decoded: string;
}

/** Shortest run of base64 alphabet characters worth decoding. */
const MIN_RUN = 24;
/** 1 for the base64 alphabet, both standard and URL-safe: A-Z a-z 0-9 + / _ -. */
const BASE64_CHAR = (() => {
  const t = new Uint8Array(128);
  for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-')
    t[ch.charCodeAt(0)] = 1;
  return t;
})();
const isB64 = (c: number) => c < 128 && BASE64_CHAR[c] === 1;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Printable text: letters, digits, punctuation, whitespace — not binary noise. */
function looksLikeText(s: string): boolean {
  if (s.length < 8) return false;
  let good = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c === 9 || c === 10 || c === 13 || (c >= 0x20 && c < 0x7f) || c >= 0xa0) good++;
  }
  return good / s.length > 0.95 && /[\p{L}]{3}/u.test(s);
}

/** Every base64 run in `text` that decodes to readable UTF-8. */
export function decodeBase64Payloads(text: string): DecodedPayload[] {
  const out: DecodedPayload[] = [];
  // Maximal runs of ≥ MIN_RUN alphabet characters plus up to two '=' (a hand-written scan: the
  // equivalent regex with its look-behind was a tenth of the whole scan time on ordinary text).
  let i = 0;
  while (i < text.length) {
    if (!isB64(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && isB64(text.charCodeAt(i))) i++;
    if (i - start < MIN_RUN) continue;
    let end = i;
    if (end < text.length && text.charCodeAt(end) === 0x3d) end++;
    if (end < text.length && text.charCodeAt(end) === 0x3d) end++;
    i = end;
    const run = text.slice(start, end);
    // Plain words and identifiers are long alnum runs too; base64 of text mixes case and digits.
    if (!/[A-Z]/.test(run) || !/[a-z]/.test(run)) continue;
    try {
      const bin = atob(
        run
          .replace(/-/g, '+')
          .replace(/_/g, '/')
          .replace(/=+$/, '')
          .padEnd(Math.ceil(run.replace(/=+$/, '').length / 4) * 4, '='),
      );
      const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
      const decoded = utf8.decode(bytes);
      if (looksLikeText(decoded)) out.push({ start, end, decoded });
    } catch {
      // not base64 / not UTF-8: ordinary text
    }
    if (out.length >= 8) break;
  }
  return out;
}
