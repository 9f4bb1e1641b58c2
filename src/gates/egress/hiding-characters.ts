/**
 * Invisible characters a hostile model can use to slip a value past the recognisers
 * (`138​1234​5678`, `attacker​@evil.example`) or to plant a watermark-like frame of its own.
 * The egress gate drops them before anything else looks at the text (docs/gates.md, "Egress").
 */
import { isInvisible } from '../input/normalize.js';

/**
 * Always dropped: the watermark's symbols (the Variation Selectors Supplement, and the invisible
 * operators an older codec framed with) have no use in what a model writes, and one it wrote
 * itself would be a planted watermark.
 */
function alwaysDropped(cp: number): boolean {
  return (cp >= 0x2061 && cp <= 0x2064) || (cp >= 0xe0100 && cp <= 0xe01ef);
}

/** Characters a PII value or an address is made of, in ASCII or full width. */
function isValueChar(cp: number | undefined): boolean {
  if (cp === undefined) return false;
  if (cp >= 0xff01 && cp <= 0xff5e) cp -= 0xfee0;
  return (
    (cp >= 0x30 && cp <= 0x39) ||
    (cp >= 0x41 && cp <= 0x5a) ||
    (cp >= 0x61 && cp <= 0x7a) ||
    cp === 0x40 ||
    cp === 0x2e ||
    cp === 0x2b ||
    cp === 0x2d ||
    cp === 0x5f
  );
}

/**
 * Removes each run of invisible characters that touches a character of a value (a digit, a
 * letter, `@ . + - _`) on either side, and the watermark's frame marks wherever they are. Runs
 * between other characters stay: an emoji's zero-width joiner, a variation selector.
 */
export function dropHidingCharacters(text: string): string {
  const s = new HidingCharacterFilter();
  return s.push(text) + s.end();
}

/** {@link dropHidingCharacters} over a text that arrives in pieces: the same result, piece by piece. */
export class HidingCharacterFilter {
  /** The last character let through (decides a run that follows it). */
  #before: number | undefined;
  /** A run of invisibles at the end of the last piece, waiting for the character after it. */
  #run = '';

  push(piece: string): string {
    let out = '';
    let i = 0;
    let run = this.#run;
    this.#run = '';
    // fast path: nothing invisible in this piece and nothing pending
    if (run === '' && !hasInvisible(piece)) {
      if (piece.length > 0) this.#before = lastCodePoint(piece);
      return piece;
    }
    while (i < piece.length) {
      const cp = piece.codePointAt(i)!;
      const width = cp > 0xffff ? 2 : 1;
      if (isInvisible(cp)) {
        if (!alwaysDropped(cp)) run += piece.slice(i, i + width);
      } else {
        if (run) {
          if (!isValueChar(this.#before) && !isValueChar(cp)) out += run;
          run = '';
        }
        out += piece.slice(i, i + width);
        this.#before = cp;
      }
      i += width;
    }
    this.#run = run;
    return out;
  }

  /** The text ended: a run at its very end stays unless it follows a value character. */
  end(): string {
    const run = this.#run;
    this.#run = '';
    return run && !isValueChar(this.#before) ? run : '';
  }
}

function hasInvisible(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // every invisible is at or above U+00AD; tag characters are U+DB40 U+DC00–DC7F
    if (c >= 0xad && (isInvisible(c) || c === 0xdb40)) return true;
  }
  return false;
}

function lastCodePoint(s: string): number {
  const low = s.charCodeAt(s.length - 1);
  return low >= 0xdc00 && low <= 0xdfff && s.length > 1 ? s.codePointAt(s.length - 2)! : low;
}
