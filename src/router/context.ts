import { wordTokens } from '../core/index.js';
import { matchRules, systemsMentioned } from './rules.js';
import type { RuleHit } from './types.js';

/**
 * What the router reads from a request besides its n-grams (docs/router.md "Feature families"),
 * computed once per decision and shared by the classifier's features and the rule report:
 * - words: the dictionary words of its Chinese (`Intl.Segmenter`) and its Latin words;
 * - semantic role: its head (first word or two, where an imperative puts its verb), whether it
 *   is phrased as a question, which office systems it names as objects;
 * - tool tendency: the rules it matches (each a feature with a learned weight) and the systems;
 * - urgency: "尽快", "马上", "asap", "right now", "urgent"…
 * The user's recent routes are the fourth family; they are not in the text, so `route()` adds
 * them as a prior (`history.ts`).
 */
export interface RequestContext {
  readonly segmented: string;
  readonly rules: RuleHit[];
  readonly systems: string[];
  /** Extra feature strings for the classifier. */
  readonly features: string[];
}

const HAN = /[\u4e00-\u9fff]/;
const QUESTION =
  /[?？]\s*$|[吗呢么]\s*[?？]?\s*$|^(?:what|when|where|who|which|how|why|is|are|do|does|did|has|have|can|could)\b|(?:什么|多少|几[天个点次号]|哪[里个些儿]|怎么|为什么|是不是|有没有|是否)/;
const URGENT =
  /尽快|马上|立刻|立即|赶紧|急|现在就|\basap\b|\burgent(?:ly)?\b|\bright (?:now|away)\b|\bimmediately\b|\btoday\b|今天/;

export function requestContext(normalized: string): RequestContext {
  // segmented once: the word list and its `|`-joined form (segmentedText) come from one pass
  const words = wordTokens(normalized);
  const segmented = `|${words.join('|')}|`;
  const rules = matchRules(normalized, undefined, segmented);
  const systems = systemsMentioned(normalized);
  const features: string[] = [];
  let prevHan = '';
  for (const w of words) {
    if (HAN.test(w)) {
      features.push(`zw:${w}`);
      if (prevHan) features.push(`zw2:${prevHan} ${w}`);
      prevHan = w;
    } else prevHan = '';
  }
  const head = words.filter(
    (w) => !/^(?:please|pls|can|could|would|you|i|me|help|请|帮|我|帮我|麻烦|能|能不能|你|嗯|那个)$/.test(w),
  );
  if (head[0]) features.push(`head:${head[0]}`);
  if (head[1]) features.push(`head2:${head[0]} ${head[1]}`);
  if (QUESTION.test(normalized)) features.push('form:question');
  for (const r of rules) features.push(`rule:${r.id}`);
  for (const sys of systems) features.push(`sys:${sys}`);
  features.push(`sys#:${Math.min(systems.length, 3)}`);
  if (URGENT.test(normalized)) features.push('urgent');
  return { segmented, rules, systems, features };
}
