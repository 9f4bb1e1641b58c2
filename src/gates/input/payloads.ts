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

const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{24,}={0,2}/g;
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
  for (const m of text.matchAll(BASE64_RUN)) {
    const run = m[0];
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
      if (looksLikeText(decoded)) out.push({ start: m.index, end: m.index + run.length, decoded });
    } catch {
      // not base64 / not UTF-8: ordinary text
    }
    if (out.length >= 8) break;
  }
  return out;
}
