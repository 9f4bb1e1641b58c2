const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const STOP = new Set([
  'the',
  'a',
  'an',
  'of',
  'to',
  'and',
  'or',
  'is',
  'are',
  'what',
  'how',
  'me',
  'my',
  'please',
  'for',
  'in',
  'on',
]);
const CJK_STOP = new Set(['什么', '一下', '怎么', '请问', '我们', '你们', '是否', '哪些', '帮我']);

/**
 * Search terms for a request, in both scripts: English words (minus stop words) and Chinese
 * character bigrams (Chinese has no spaces), capped so the query stays within a tool's limits.
 */
export function retrievalTerms(request: string, maxChars = 200): string {
  const terms: string[] = [];
  for (const token of request.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!token) continue;
    if (CJK.test(token)) {
      const chars = [...token].filter((c) => CJK.test(c));
      for (let i = 0; i + 1 < chars.length; i++) {
        const bigram = chars[i]! + chars[i + 1]!;
        if (!CJK_STOP.has(bigram)) terms.push(bigram);
      }
    } else if (token.length > 2 && !STOP.has(token)) terms.push(token);
  }
  let out = '';
  for (const t of new Set(terms)) {
    if (out.length + t.length + 1 > maxChars) break;
    out = out ? `${out} ${t}` : t;
  }
  return out;
}
