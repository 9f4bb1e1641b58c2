/**
 * Where a watermark may go in a text without breaking it (docs/gates.md, "Watermarks"): only at
 * boundaries no parser or search reads across — right after sentence or clause punctuation
 * (ASCII punctuation only where whitespace or the end follows, CJK punctuation anywhere), so
 * every word, number, id and URL keeps its characters and the character after it. Never inside
 * code (fenced, indented or inline), an HTML tag, a URL, an e-mail address or a path (a table
 * row's cells take marks like prose: after their punctuation, never next to a `|`); never in a text that is JSON as a whole. Pure.
 */

/** Punctuation after which a sentence or clause ends (ASCII ones only when whitespace follows). */
const ASCII_END = new Set(['.', ',', ';', ':', '!', '?']);
/** Closing marks that may follow that punctuation: the boundary goes after the last of them. */
const ASCII_CLOSERS = new Set([')', ']', '"', "'", '\u2019', '\u201d', '\u00bb']);
/** CJK sentence and clause punctuation, and the closing brackets and quotes that follow it. */
const CJK_PUNCT = new Set([
  '\u3002', // 。
  '\uff0c', // ，
  '\u3001', // 、
  '\uff1b', // ；
  '\uff1a', // ：
  '\uff01', // ！
  '\uff1f', // ？
  '\u2026', // …
  '\uff0e', // ．
]);
const CJK_CLOSERS = new Set(['\u300d', '\u300f', '\u3011', '\u300b', '\u3009', '\uff09', '\u201d', '\u2019']);
/** Ends of a sentence (not just a clause), for choosing how many fragments a frame is cut into. */
const SENTENCE_END = new Set(['.', '!', '?', '\u3002', '\uff01', '\uff1f']);

/** Where a watermark may be written in a text, and how the text is divided into sentences. */
export interface Boundaries {
  /** UTF-16 offsets to insert at (after the punctuation), ascending. */
  readonly positions: readonly number[];
  /** How many of them end a sentence (or a line). */
  readonly sentenceEnds: number;
  /** For a text with no punctuation boundary: one gap between two words, else undefined. */
  readonly fallback: number | undefined;
}

/** True when the text as a whole is JSON (any value; also NDJSON): then it is left untouched. */
export function isJsonDocument(text: string): boolean {
  const t = text.trim();
  if (!/^[{["\-0-9tfn]/.test(t)) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    // NDJSON: every non-empty line a JSON value is structured too.
    const lines = t.split('\n').filter((l) => l.trim() !== '');
    if (lines.length < 2) return false;
    return lines.every((l) => {
      try {
        const v: unknown = JSON.parse(l);
        return typeof v === 'object' && v !== null;
      } catch {
        return false;
      }
    });
  }
}

/** Marks (true = skip) every UTF-16 unit inside code, tables, tags, URLs, e-mail addresses and paths. */
function skipMask(text: string): Uint8Array {
  const skip = new Uint8Array(text.length + 1);
  const mark = (from: number, to: number) => skip.fill(1, from, to);
  // Line-level: fenced code (and its fence lines), indented code, table rows.
  let at = 0;
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const end = at + line.length;
    const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== undefined) {
      mark(at, end + 1);
      if (opener && opener[1]!.startsWith(fence)) fence = undefined;
    } else if (opener) {
      fence = opener[1]!;
      mark(at, end + 1);
    } else if (/^( {4}|\t)/.test(line)) {
      mark(at, end + 1);
    }
    at = end + 1;
  }
  // Code and tags: skipped as they stand.
  for (const re of [/(`+)[^`]*?\1/g, /<[^<>\n]*>/g, /\]\([^)\s]*\)/g]) {
    for (let m = re.exec(text); m !== null; m = re.exec(text)) mark(m.index, m.index + m[0].length);
  }
  // URLs, e-mail addresses and paths, and the punctuation right after them: a linkifier that
  // runs to the next space would otherwise carry the mark into the link.
  const addresses: RegExp[] = [
    /\b[a-z][a-z0-9+.-]*:\/\/[^\s\u3000-\u303f\uff00-\uffef<>"'`]*/gi,
    /\bwww\.[^\s\u3000-\u303f\uff00-\uffef<>"'`]*/gi,
    /[^\s@<>"'`\u3000-\u303f\uff00-\uffef]+@[^\s@<>"'`\u3000-\u303f\uff00-\uffef]+/g,
    /(?:^|[\s(])(?:~|\.{1,2})?\/[^\s\u3000-\u303f\uff00-\uffef]*/g,
    /[A-Za-z]:\\[^\s]*/g,
  ];
  for (const re of addresses) {
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      let to = m.index + m[0].length;
      while (
        to < text.length &&
        (CJK_PUNCT.has(text[to]!) || CJK_CLOSERS.has(text[to]!) || ASCII_CLOSERS.has(text[to]!))
      )
        to++;
      mark(m.index, to);
      if (m[0].length === 0) re.lastIndex++;
    }
  }
  return skip;
}

const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);

/** Every place a watermark may go in `text` (see the module comment). */
export function findBoundaries(text: string): Boundaries {
  if (text.length === 0 || isJsonDocument(text))
    return { positions: [], sentenceEnds: 0, fallback: undefined };
  const skip = skipMask(text);
  const positions: number[] = [];
  let sentenceEnds = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (skip[i]) continue;
    let end: number | undefined;
    if (CJK_PUNCT.has(c)) {
      end = i + 1;
      while (end < text.length && (CJK_PUNCT.has(text[end]!) || CJK_CLOSERS.has(text[end]!))) end++;
    } else if (ASCII_END.has(c)) {
      end = i + 1;
      while (end < text.length && (ASCII_END.has(text[end]!) || ASCII_CLOSERS.has(text[end]!))) end++;
      // ASCII punctuation ends a clause only before whitespace (or the end): "3.14", "a,b", "x:y" do not.
      if (end < text.length && !isSpace(text[end])) end = undefined;
    }
    if (end === undefined) continue;
    if (skip.subarray(i, end).some((v) => v === 1) || addressBefore(text, i)) {
      i = end - 1;
      continue;
    }
    positions.push(end);
    if (
      [...text.slice(i, end)].some((ch) => SENTENCE_END.has(ch)) ||
      text[end] === '\n' ||
      end === text.length
    )
      sentenceEnds++;
    i = end - 1;
  }
  // A line or sentence with no punctuation boundary (a heading, a list item, an e-mail header)
  // gets one between two of its words — right after the space, so the words on both sides keep
  // their characters — so that every sentence carries a piece of the frame.
  const extra: number[] = [];
  let units = 0;
  let unitStart = 0;
  let p = 0;
  const closeUnit = (unitEnd: number, hasBoundary: boolean) => {
    const slice = text.slice(unitStart, unitEnd);
    if (slice.trim() !== '') {
      units++;
      if (!hasBoundary) {
        const gap = lastWordGap(text, unitStart, unitEnd, skip);
        if (gap !== undefined) extra.push(gap);
      }
    }
    unitStart = unitEnd;
  };
  for (let i = 0; i <= text.length; i++) {
    const atBoundary = p < positions.length && positions[p] === i;
    if (atBoundary) p++;
    const sentenceEnd =
      atBoundary && [...text.slice(Math.max(unitStart, i - 3), i)].some((ch) => SENTENCE_END.has(ch));
    if (i === text.length || text[i] === '\n' || sentenceEnd) {
      const inside = positions.some((x) => x > unitStart && x <= i);
      closeUnit(i === text.length ? i : text[i] === '\n' ? i + 1 : i, inside);
    }
  }
  const all = [...positions, ...extra].sort((a, b) => a - b);
  return { positions: all, sentenceEnds: Math.max(sentenceEnds, units), fallback: undefined };
}

/**
 * Whether the word that ends at `at` (back to whitespace or CJK punctuation) looks like an address
 * — a domain (`example.org/p`), a path, an e-mail — that the URL patterns did not catch: a
 * linkifier may still take it, and the mark after its punctuation with it.
 */
function addressBefore(text: string, at: number): boolean {
  let from = at;
  while (from > 0 && !isSpace(text[from - 1]) && !CJK_PUNCT.has(text[from - 1]!)) from--;
  return /:\/\/|@|\/|\\|[\w-]\.[a-z]{2,}(?![a-z])/i.test(text.slice(from, at));
}

/** The position right after the last space between two words of text[from, to), outside skipped spans. */
function lastWordGap(text: string, from: number, to: number, skip: Uint8Array): number | undefined {
  for (let i = to - 2; i > from; i--) {
    if (text[i] === ' ' && !skip[i] && !skip[i + 1] && !isSpace(text[i - 1]) && !isSpace(text[i + 1]))
      return i + 1;
  }
  return undefined;
}
