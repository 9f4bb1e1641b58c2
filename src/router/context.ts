import { wordTokens } from '../core/index.js';
import { matchRules, systemsMentioned } from './rules.js';
import type { RuleHit } from './types.js';

/**
 * What the router reads from a request besides its n-grams (docs/router.md "Feature families"),
 * computed once per decision and shared by the classifier's features and the rule report:
 * - words: the dictionary words of its Chinese (`Intl.Segmenter`) and its Latin words;
 * - semantic role: its head (first word or two, where an imperative puts its verb), whether it
 *   is phrased as a question, whether it asks how things are done in general or about the
 *   user's own objects, which office systems it names as objects;
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
// Semantic role beyond the head: a question about how things are done in general (the read-only
// line answers it from documents) versus one about the user's own objects (a lookup for the
// quick line). Features, not rules: their weights are learned (docs/router.md).
const HOWTO =
  /^(?:how (?:do|can|should|does|would) (?:i|we|you|one|people|they)\b|how to\b|what(?:'s| is) the (?:best|usual|right|normal) way|what(?:'s| is| are) (?:an? |the difference)|what does\b.*\b(?:mean|stand for)|any tips|is there a (?:rule|policy)|where can i find)|\b(?:usually|generally|in general|typically)\b|一般|通常|如何|怎么(?:写|做|设计|设置|用|算|定|查|订|预订|申请)|是什么|什么意思|有什么(?:区别|技巧|规定|思路|要求)|有啥区别|什么流程/;
const MINE = /\b(?:my|mine|am i|do i have|have i|i've got)\b|我的|我(?:还|这|上|下|今|明|最近)|给我/;
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
  if (HOWTO.test(normalized)) features.push('role:howto');
  if (MINE.test(normalized)) features.push('role:mine');
  for (const r of rules) features.push(`rule:${r.id}`);
  for (const sys of systems) features.push(`sys:${sys}`);
  features.push(`sys#:${Math.min(systems.length, 3)}`);
  if (URGENT.test(normalized)) features.push('urgent');
  return { segmented, rules, systems, features };
}
