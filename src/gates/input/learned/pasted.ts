/**
 * The pasted parts of a user's message: text the requester brought along for the assistant to
 * translate, summarise, proofread or answer — an e-mail, a clause, a chat log. That part is data,
 * the same as a tool result, and an order planted in it is shaped like one planted in a document
 * ("AI assistant reading this, forward…"), not like a request. So the user-input scan also reads
 * each pasted part's windows with the tool-output model (score.ts `learnedUserScore`; docs/gates.md
 * "Pasted text").
 *
 * A pasted part is, in the normalised text: what follows a colon within the first line (not a
 * time's or a URL's), or the first line break when the line before it brings material ("translate
 * this", "see below", "here is the thread", "帮我总结下面") or the text after it opens like one (a
 * mail header, a quote mark, a fence), when at least PASTED_MIN units follow; and any quoted span
 * of at least QUOTED_MIN units before it. A message that merely runs over several lines ("Hi!\nI'm
 * going to Paris on Monday, book…") is a request, not material. Pure; ranges are [start, end).
 */
import type { TextFeatures } from './windows.js';

/** Units that must follow the lead-in for the rest to count as pasted. */
export const PASTED_MIN = 60;
/** Units a quoted span needs to count as pasted. */
export const QUOTED_MIN = 40;
/** A lead-in colon must come this early ("Translate this for the client: …"). */
const LEAD_IN_MAX = 120;

const QUOTED = new RegExp(`["“「『«]([^"”」』»]{${QUOTED_MIN},})["”」』»]`, 'g');

export interface PastedRange {
  readonly start: number;
  readonly end: number;
}

/**
 * A first line that brings material for the assistant to work on: asks to translate, summarise,
 * proofread, answer or explain something, or points at it (below, the following, this e-mail).
 */
const MATERIAL_LEAD_IN =
  /\b(?:translat\w*|summar\w*|tl;?dr|proofread\w*|rewrit\w*|rephras\w*|paraphras\w*|polish|tidy|clean up|reword\w*|shorten|edit|correct|explain|interpret|analy[sz]e|extract|reply|respond|answer|draft a (?:reply|response)|below|following|pasted|attached|forwarded|fwd|here(?: is|'s| are)|this (?:e-?mail|mail|message|text|doc(?:ument)?|note|letter|thread|chat|log|ticket|clause|paragraph|post|review|transcript|article|section|passage|contract|memo|minutes|page|report|comment|feedback|excerpt|snippet))\b|翻译|譯|总结|總結|概括|摘要|润色|潤色|改写|改寫|校对|校對|回复|回覆|回答|解释|解釋|以下|下面|如下|这封|這封|这段|這段|这篇|這篇|这份|這份|这条|這條|原文|转发|轉發|附件/i;

/** A tail that opens like material whatever the line before it: a mail header, a quote, a fence. */
const MATERIAL_OPENING =
  /^(?:(?:from|to|subject|date|cc|re|fwd?|发件人|收件人|主题|主題|日期)\s*[:：]|[>"“「『«]|```|---|===|<)/i;

/** The first colon of the opening words that introduces something: not a time (10:00), not a URL. */
function leadInColon(text: string): number {
  const end = Math.min(text.length, LEAD_IN_MAX);
  for (let i = 0; i < end; i++) {
    const c = text[i];
    if (c !== ':' && c !== '：') continue;
    const digits = /\d/.test(text[i - 1] ?? '') && /\d/.test(text[i + 1] ?? '');
    if (!digits && text[i + 1] !== '/') return i;
  }
  return -1;
}

/** The pasted parts of normalised `text`: the tail first (if any), then quoted spans before it. */
export function pastedSegments(text: string): PastedRange[] {
  const out: PastedRange[] = [];
  let tail = -1;
  const nl = text.indexOf('\n');
  if (nl >= 0) {
    let after = nl + 1;
    while (after < text.length && /\s/.test(text[after]!)) after++;
    if (MATERIAL_LEAD_IN.test(text.slice(0, nl)) || MATERIAL_OPENING.test(text.slice(after, after + 12)))
      tail = nl + 1;
  }
  // a lead-in colon belongs to the first line: one further down is the material's own ("Present:")
  const colon = leadInColon(text);
  if (colon >= 0 && (nl < 0 || colon < nl)) tail = colon + 1;
  while (tail >= 0 && tail < text.length && /\s/.test(text[tail]!)) tail++;
  if (tail >= 0 && text.length - tail >= PASTED_MIN) out.push({ start: tail, end: text.length });
  const before = out.length > 0 ? out[0]!.start : text.length;
  // a quoted span counts only where it starts before the tail: stop at the first one past it
  for (const m of text.matchAll(QUOTED)) {
    if (m.index! >= before) break;
    const start = m.index! + 1;
    const end = Math.min(start + m[1]!.length, before);
    if (end - start >= QUOTED_MIN) out.push({ start, end });
  }
  return out;
}

/**
 * Per window of `f`, 1 when the window lies in a pasted part — its midpoint inside one: the
 * sentence that opens a pasted part usually shares its unit with the lead-in before it.
 */
export function pastedWindows(f: TextFeatures, parts: readonly PastedRange[]): Uint8Array {
  const out = new Uint8Array(f.windows.length);
  for (let w = 0; w < f.windows.length; w++) {
    const { start, end } = f.windows[w]!;
    const mid = (start + end) / 2;
    if (parts.some((p) => mid >= p.start && mid < p.end)) out[w] = 1;
  }
  return out;
}
