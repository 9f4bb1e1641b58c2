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

/** Words that carry no ask at the start of a request or a clause (politeness, fillers, hedges). */
const FILLER =
  /^(?:please|pls|plz|kindly|can|could|would|will|you|u|i|me|we|help|just|also|and|so|um+|uh+|erm|hmm+|oh|ok|okay|hey|hi|anyway|actually|no|wait|sorry|oops|like|quick|one|q|btw|fyi|then|now|请|帮|我|帮我|麻烦|能|能不能|可以|你|您|嗯|呃|那个|就是|然后|还有|另外|对了|顺便|再|一下|哈|啊)$/;
/**
 * A clause that is only a greeting, pleasantry or sign-off: skipped when the router looks for the
 * request's head, so "Hi there, hope your week is going well! Could you move my 1:1…" is headed
 * by "move", as the same ask without the wrapper is (docs/router.md "Feature families").
 */
const PLEASANTRY =
  /^(?:(?:hi|hello|hey|dear|morning|good (?:morning|afternoon|evening)|greetings)\b[^.!?\n]{0,40}$|(?:i )?hope (?:this|you|your|all)\b|(?:many )?thanks?\b|thank you\b|cheers\b|(?:kind |best |warm )?regards\b|best\b|sorry\b|apologies\b|sorry to bother\b|long (?:day|week)\b|happy (?:monday|friday)\b|(?:have|enjoy) (?:a |your )?(?:great |good |nice |lovely )?(?:day|weekend|evening|week)\b|(?:[\u4e00-\u9fff]{1,3}(?:您好|你好|好)|您好|你好|哈喽|早上好|下午好|晚上好|早|各位好|打扰(?:一下|了)?|不好意思|辛苦(?:了|啦)?|谢谢|多谢|感谢|麻烦了|抱歉)[^，,。！!？?\n]{0,12}$)/;
const CLAUSE = /[\n!?;。！？；～~]+|\.(?!\d)\s*|,(?!\d)\s*|:\s+|[，：—–]\s*/g;

export function requestContext(normalized: string): RequestContext {
  // segmented once: the word list and its `|`-joined form (segmentedText) come from one pass
  const starts: number[] = [];
  const words = wordTokens(normalized, starts);
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
  // the head: the first words of the first clause that is not a pleasantry; each of the first
  // clauses also gives its own first content word, so an ask after background still shows its
  // verb. Clauses are cut from the words already segmented (by their offsets), not segmented again.
  let headed = false;
  let clauses = 0;
  let w = 0;
  CLAUSE.lastIndex = 0;
  for (let from = 0; from < normalized.length && clauses < 4; ) {
    const m = CLAUSE.exec(normalized);
    const to = m ? m.index : normalized.length;
    const next = m ? m.index + Math.max(1, m[0].length) : normalized.length;
    const clause = normalized.slice(from, to).trim();
    let first = -1;
    let second = -1;
    for (; w < words.length && starts[w]! < to; w++) {
      if (starts[w]! < from || FILLER.test(words[w]!)) continue;
      if (first < 0) first = w;
      else if (second < 0) second = w;
    }
    if (clause !== '' && first >= 0 && !PLEASANTRY.test(clause)) {
      if (!headed) {
        features.push(`head:${words[first]}`);
        if (second >= 0) features.push(`head2:${words[first]} ${words[second]}`);
        headed = true;
      }
      features.push(`chead:${words[first]}`);
      clauses++;
    }
    from = next;
    if (!m) break;
  }
  if (QUESTION.test(normalized)) features.push('form:question');
  if (HOWTO.test(normalized)) features.push('role:howto');
  if (MINE.test(normalized)) features.push('role:mine');
  for (const r of rules) features.push(`rule:${r.id}`);
  for (const sys of systems) features.push(`sys:${sys}`);
  features.push(`sys#:${Math.min(systems.length, 3)}`);
  if (URGENT.test(normalized)) features.push('urgent');
  return { segmented, rules, systems, features };
}
