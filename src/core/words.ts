/**
 * Word tokens of a request, for matching keywords as whole words (docs/router.md "Words"):
 * Latin letters and digits split on everything else; runs of Han characters are cut into words
 * by the ICU dictionary segmenter that Node ships (`Intl.Segmenter`, no dependency), so "审查一下"
 * is 审查 | 一下 and does not contain the word 查 (nor 查一下). Pure; the segmenter is built on first
 * use (its dictionary loads in about 10 ms). Where a Node build has no ICU word segmenter, a Han
 * run falls back to one token per character — keywords then still match whole characters.
 */

let segmenter: Intl.Segmenter | null | undefined;

function hanSegmenter(): Intl.Segmenter | null {
  if (segmenter === undefined) {
    try {
      segmenter =
        typeof Intl.Segmenter === 'function' ? new Intl.Segmenter('zh', { granularity: 'word' }) : null;
    } catch {
      segmenter = null;
    }
  }
  return segmenter;
}

const isHan = (c: number) => (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf);
const isWordChar = (c: number) =>
  (c >= 0x61 && c <= 0x7a) ||
  (c >= 0x41 && c <= 0x5a) ||
  (c >= 0x30 && c <= 0x39) ||
  (c >= 0xc0 && c <= 0x24f) ||
  c === 0x5f;

/** Pushes the words of one Han run that starts at `at`. */
function hanWords(run: string, at: number, out: string[], starts?: number[]): void {
  const seg = hanSegmenter();
  if (!seg) {
    let k = 0;
    for (const ch of run) {
      out.push(ch);
      starts?.push(at + k);
      k += ch.length;
    }
    return;
  }
  for (const s of seg.segment(run)) {
    out.push(s.segment);
    starts?.push(at + s.index);
  }
}

/**
 * The words of `text` in order: Latin/digit tokens (as written; `_` joins, so `project_admin` is
 * one word) and the dictionary words of every Han run. Punctuation and spaces are dropped. With
 * `starts`, each word's offset in `text` is pushed there too.
 */
export function wordTokens(text: string, starts?: number[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isHan(c)) {
      const start = i;
      while (i < text.length && isHan(text.charCodeAt(i))) i++;
      hanWords(text.slice(start, i), start, out, starts);
    } else if (isWordChar(c)) {
      const start = i;
      while (i < text.length && isWordChar(text.charCodeAt(i))) i++;
      out.push(text.slice(start, i));
      starts?.push(start);
    } else i++;
  }
  return out;
}

/**
 * `text` as its words between `|` separators (`|审查|一下|这个|合同|`), the form a keyword
 * pattern built by `wholeWords` runs on.
 */
export function segmentedText(text: string): string {
  return `|${wordTokens(text).join('|')}|`;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Regexp source matching any of `words` on a `segmentedText` string, starting and ending on word
 * boundaries; a keyword may span several words ("查一下" is 查 | 一下 to the segmenter) but never
 * part of one ("审查" does not contain 查).
 */
export function wholeWords(words: readonly string[]): string {
  const alts = words.map((w) => [...w].map(escapeRegExp).join('\\|?'));
  return `(?<=\\|)(?:${alts.join('|')})(?=\\|)`;
}
