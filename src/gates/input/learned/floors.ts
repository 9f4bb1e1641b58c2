/**
 * Recognisers precise enough to decide on their own: a hit lifts the learned score to at least
 * the review threshold, whatever the window's other features say, so no retrain can let the
 * technique through. They hold in both channels. Each names a technique with no innocent
 * reading: a claimed promotion of the assistant or the requester to a named privileged role (the incident
 * of docs/gates.md), "do not follow your instructions", a demand to reveal the system prompt in
 * Chinese, a Chinese override. In the training sources they fire on 5 of 10,397 benign user
 * inputs, and on 266 of 17,826 benign documents — mostly ones that quote an attack to define or
 * warn about it ("提示注入是指文本要求 AI 系统忽略它原有的指令"); there a floor costs a quoted
 * document, not a refused request (docs/gates.md "Floors").
 */
export const FLOOR_RULES: ReadonlySet<string> = new Set([
  'role.en.role-token',
  'role.en.promoted',
  'role.en.promoted-to',
  'role.en.youarenow',
  'role.zh.role-token',
  'role.zh.promoted',
  'role.zh.promoted-to',
  'role.zh.youarenow',
  'override.en.donotfollow',
  'override.zh.ignore',
  'override.zh.disobey',
  'extract.zh.sysprompt',
  'extract.zh.ba',
  'extract.en.above',
]);

/**
 * Floors that hold only outside quotation marks. "Set aside the previous instructions" has no
 * innocent reading when it is said, in a request or planted in a document — but security
 * notices, forum posts and test files quote it to warn about it. In the corpus, the public sets
 * and the hand-written set it fires unquoted in 250 injections and 2 of its 28,223 benign texts,
 * and inside quotes in 33 injections and 19 benign texts.
 */
export const UNQUOTED_FLOOR_RULES: ReadonlySet<string> = new Set(['override.en.ignore-instructions']);

/** Quotation marks that open or close a quote (straight, curly, CJK corner brackets, guillemets, backtick). */
const QUOTE_MARKS = new Set([
  '"',
  '\u201c',
  '\u201d',
  '\u300c',
  '\u300d',
  '\u300e',
  '\u300f',
  '\u00ab',
  '\u00bb',
  '`',
]);
/** How far back a quote may have opened: a quoted attack string is a sentence, not a page. */
const QUOTE_LOOKBACK = 200;

/**
 * Whether `at` in `text` sits inside quotation marks opened earlier on its line (within
 * QUOTE_LOOKBACK units), or right after a single quote.
 */
export function insideQuotes(text: string, at: number): boolean {
  let marks = 0;
  const stop = Math.max(0, at - QUOTE_LOOKBACK);
  for (let i = at - 1; i >= stop; i--) {
    const c = text[i]!;
    if (c === '\n') break;
    if (QUOTE_MARKS.has(c)) marks++;
  }
  let j = at - 1;
  while (j >= 0 && text[j] === ' ') j--;
  const single = text[j] === "'" || text[j] === '\u2018' || text[j] === '\u2019';
  return marks % 2 === 1 || single;
}

/** The first hit that lifts a text to review (`text`: the normalised text the hits index). */
export function floorHit<H extends { readonly rule: string; readonly start: number }>(
  hits: readonly H[],
  text: string,
): H | undefined {
  return hits.find(
    (h) => FLOOR_RULES.has(h.rule) || (UNQUOTED_FLOOR_RULES.has(h.rule) && !insideQuotes(text, h.start)),
  );
}
