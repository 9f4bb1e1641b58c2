/**
 * Which high-risk capabilities the user's own words declare. A tool's `intentKeywords` are
 * phrases; a phrase is declared only when it occurs in the request as whole words: Latin-script
 * words on word boundaries, Chinese (and other scripts without spaces) by dictionary word
 * segmentation — `Intl.Segmenter` with word granularity, which in Node uses ICU's dictionary
 * segmenter and needs no dependency. Never a substring inside another word: "billion" does not
 * declare "bill", and 费用报销 (expense reimbursement) does not declare 费用报表 (cost report).
 * Pure (docs/policy.md, "Intent").
 */

/** What the matcher needs of a tool manifest. */
export interface IntentPhrases {
  readonly name: string;
  readonly intentKeywords?: readonly string[];
}

// One segmenter for the process: construction loads ICU data, segmenting is cheap. The locale only
// picks the dictionary for scripts without spaces; Latin words are split on boundaries either way.
let segmenter: Intl.Segmenter | undefined;

/** The words of a text, normalised (NFKC, lower case), in order; punctuation and spaces dropped. */
export function intentWords(text: string): string[] {
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' });
  const out: string[] = [];
  for (const s of segmenter.segment(text.normalize('NFKC').toLowerCase())) {
    if (s.isWordLike) out.push(s.segment);
  }
  return out;
}

const phraseCache = new Map<string, readonly string[]>();

function phraseWords(phrase: string): readonly string[] {
  let words = phraseCache.get(phrase);
  if (!words) {
    words = intentWords(phrase);
    if (phraseCache.size >= 4096) phraseCache.clear();
    phraseCache.set(phrase, words);
  }
  return words;
}

/** True when `phrase`'s words occur in `words` consecutively (a phrase of no words never does). */
function containsRun(words: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.length === 0) return false;
  outer: for (let i = 0; i + phrase.length <= words.length; i++) {
    for (let j = 0; j < phrase.length; j++) if (words[i + j] !== phrase[j]) continue outer;
    return true;
  }
  return false;
}

/** True when the request says `phrase` as whole words. */
export function mentionsPhrase(request: string, phrase: string): boolean {
  return containsRun(intentWords(request), phraseWords(phrase));
}

/**
 * The tools (with `intentKeywords`) whose capability the request declares in its own words,
 * in the order given. Tools without phrases are never declared by words: only a plan's explicit
 * tool list can name them.
 */
export function declaredCapabilities(request: string, tools: Iterable<IntentPhrases>): string[] {
  const words = intentWords(request);
  const out: string[] = [];
  for (const tool of tools) {
    const phrases = tool.intentKeywords ?? [];
    if (phrases.some((p) => containsRun(words, phraseWords(p)))) out.push(tool.name);
  }
  return out;
}
