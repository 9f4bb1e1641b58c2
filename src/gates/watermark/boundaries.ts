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
const ASCII_END_KIND = 1;
const ASCII_CLOSER_KIND = 2;
const CJK_PUNCT_KIND = 3;
const CJK_CLOSER_KIND = 4;
/** The kind of each BMP character above (0: none of them), read once per character. */
const CLASS = (() => {
  const t = new Uint8Array(0x10000);
  const put = (chars: Iterable<string>, kind: number) => {
    for (const c of chars) t[c.charCodeAt(0)] = kind;
  };
  put(ASCII_CLOSERS, ASCII_CLOSER_KIND);
  put(CJK_CLOSERS, CJK_CLOSER_KIND);
  put(ASCII_END, ASCII_END_KIND);
  put(CJK_PUNCT, CJK_PUNCT_KIND);
  return t;
})();
/** Ends of a sentence (not just a clause). */
const SENTENCE_END = new Set(['.', '!', '?', '\u3002', '\uff01', '\uff1f']);

/** Where a watermark may be written in a text. */
export interface Boundaries {
  /** UTF-16 offsets to insert at (after punctuation, or after the space between two words), ascending. */
  readonly positions: readonly number[];
  /** How many sentences (or lines) the text has. */
  readonly sentenceEnds: number;
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
  // Line-level: fenced code (and its fence lines) and indented code — looked for only when the
  // text has a fence or an indent at all.
  const fences = text.includes('```') || text.includes('~~~');
  if (fences || text.includes('    ') || text.includes('\t')) {
    let at = 0;
    let fence: string | undefined;
    for (const line of text.split('\n')) {
      const end = at + line.length;
      const opener = fences ? /^\s{0,3}(`{3,}|~{3,})/.exec(line) : null;
      if (fence !== undefined) {
        mark(at, end + 1);
        if (opener?.[1]?.startsWith(fence)) fence = undefined;
      } else if (opener) {
        fence = opener[1]!;
        mark(at, end + 1);
      } else if (/^( {4}|\t)/.test(line)) {
        mark(at, end + 1);
      }
      at = end + 1;
    }
  }
  // Code and tags: skipped as they stand.
  for (const [anchor, re] of [
    ['`', /(`+)[^`]*?\1/g],
    ['<', /<[^<>\n]*>/g],
    ['](', /\]\([^)\s]*\)/g],
  ] as const) {
    if (!text.includes(anchor)) continue;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) mark(m.index, m.index + m[0].length);
  }
  // URLs, e-mail addresses and paths, and the punctuation right after them: a linkifier that
  // runs to the next space would otherwise carry the mark into the link.
  // Each pattern runs only when its anchor occurs at all (most answers hold none of them).
  const addresses: [string, RegExp][] = [
    ['://', /\b[a-z][a-z0-9+.-]*:\/\/[^\s\u3000-\u303f\uff00-\uffef<>"'`]*/gi],
    ['www.', /\bwww\.[^\s\u3000-\u303f\uff00-\uffef<>"'`]*/gi],
    ['/', /(?:^|[\s(])(?:~|\.{1,2})?\/[^\s\u3000-\u303f\uff00-\uffef]*/g],
    [':\\', /[A-Za-z]:\\[^\s]*/g],
  ];
  const markAddress = (from: number, to: number) => {
    while (
      to < text.length &&
      (CJK_PUNCT.has(text[to]!) || CJK_CLOSERS.has(text[to]!) || ASCII_CLOSERS.has(text[to]!))
    )
      to++;
    mark(from, to);
  };
  for (const [anchor, re] of addresses) {
    if (!text.includes(anchor)) continue;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      markAddress(m.index, m.index + m[0].length);
      if (m[0].length === 0) re.lastIndex++;
    }
  }
  // E-mail addresses: grown outwards from each "@" (a pattern would rescan every word for one).
  const inAddress = (c: string) =>
    !isSpace(c) && !'@<>"\'`'.includes(c) && !CJK_PUNCT.has(c) && !CJK_CLOSERS.has(c);
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let from = at;
    while (from > 0 && inAddress(text[from - 1]!)) from--;
    let to = at + 1;
    while (to < text.length && inAddress(text[to]!)) to++;
    if (from < at && to > at + 1) markAddress(from, to);
  }
  return skip;
}

/** JavaScript's `\s`, without a regular expression per character. */
function isSpace(c: string | undefined): boolean {
  if (c === undefined) return false;
  const n = c.charCodeAt(0);
  if (n <= 0x20) return n === 0x20 || (n >= 0x09 && n <= 0x0d);
  if (n < 0xa0) return false;
  return (
    n === 0xa0 ||
    n === 0x1680 ||
    (n >= 0x2000 && n <= 0x200a) ||
    n === 0x2028 ||
    n === 0x2029 ||
    n === 0x202f ||
    n === 0x205f ||
    n === 0x3000 ||
    n === 0xfeff
  );
}

/** Every place a watermark may go in `text` (see the module comment). */
export function findBoundaries(text: string): Boundaries {
  if (text.length === 0 || isJsonDocument(text)) return { positions: [], sentenceEnds: 0 };
  const skip = skipMask(text);
  const n = text.length;
  const positions: number[] = [];
  /** Whether each position in `positions` closes a sentence. */
  const closes: boolean[] = [];
  for (let i = 0; i < n; i++) {
    const kind = CLASS[text.charCodeAt(i)];
    if (kind !== ASCII_END_KIND && kind !== CJK_PUNCT_KIND) continue;
    if (skip[i]) continue;
    let end = i + 1;
    if (kind === CJK_PUNCT_KIND) {
      while (
        end < n &&
        (CLASS[text.charCodeAt(end)] === CJK_PUNCT_KIND || CLASS[text.charCodeAt(end)] === CJK_CLOSER_KIND)
      )
        end++;
    } else {
      while (
        end < n &&
        (CLASS[text.charCodeAt(end)] === ASCII_END_KIND || CLASS[text.charCodeAt(end)] === ASCII_CLOSER_KIND)
      )
        end++;
      // ASCII punctuation ends a clause only before whitespace (or the end): "3.14", "a,b", "x:y" do not.
      if (end < n && !isSpace(text[end])) {
        i = end - 1;
        continue;
      }
    }
    let skipped = false;
    for (let k = i; k < end && !skipped; k++) skipped = skip[k] === 1;
    if (!skipped && !addressBefore(text, i)) {
      let sentence = text.charCodeAt(end) === 0x0a || end === n;
      for (let k = i; k < end && !sentence; k++) sentence = SENTENCE_END.has(text[k]!);
      positions.push(end);
      closes.push(sentence);
    }
    i = end - 1;
  }
  // A line or sentence with no punctuation boundary (a heading, a list item, an e-mail header)
  // gets one between two of its words — right after the space, so the words on both sides keep
  // their characters — so that every sentence carries a piece of the frame. Units end at a
  // sentence-closing boundary, a line break, or the end.
  const extra: number[] = [];
  let units = 0;
  let unitStart = 0;
  let unitHasBoundary = false;
  const closeUnit = (unitEnd: number) => {
    let blank = true;
    for (let k = unitStart; k < unitEnd && blank; k++) blank = isSpace(text[k]);
    if (!blank) {
      units++;
      if (!unitHasBoundary) {
        const gap = lastWordGap(text, unitStart, unitEnd, skip);
        if (gap !== undefined) extra.push(gap);
      }
    }
    unitStart = unitEnd;
    unitHasBoundary = false;
  };
  let p = 0;
  for (let nl = text.indexOf('\n'); ; nl = text.indexOf('\n', nl + 1)) {
    const lineEnd = nl < 0 ? n : nl + 1;
    while (p < positions.length && positions[p]! <= lineEnd) {
      unitHasBoundary = true;
      if (closes[p] && positions[p]! < lineEnd) closeUnit(positions[p]!);
      p++;
    }
    closeUnit(lineEnd);
    if (nl < 0) break;
  }
  const sentenceEnds = closes.filter(Boolean).length;
  const all = extra.length === 0 ? positions : [...positions, ...extra].sort((a, b) => a - b);
  return { positions: all, sentenceEnds: Math.max(sentenceEnds, units) };
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
