import { maskUuids, uuidSpans } from '../../../core/index.js';
import { CONTEXT_BOOST, CONTEXT_WINDOW, PII_RECOGNISERS, type PiiType, textProfile } from './recognisers.js';

/** One PII candidate with its confidence tier. */
export interface PiiFinding {
  readonly type: PiiType;
  readonly start: number;
  readonly end: number;
  readonly score: number;
  /** `high`: validated or strongly shaped; `low`: failed checksum or weak shape. */
  readonly tier: 'high' | 'low';
  readonly reason: string;
}

export interface FindPiiOptions {
  /** Drop candidates scoring below this (default 0.3: low tier kept, noise dropped). */
  readonly minScore?: number;
  /** Only these types. */
  readonly types?: readonly PiiType[];
}

export const HIGH_TIER = 0.7;

/** Where a pattern matched, whatever its score: a cut through one could split a value. */
export interface PiiSpan {
  readonly start: number;
  readonly end: number;
}

/** The findings of a scan, and every span a pattern (or an id mask) covered. */
export interface PiiScan {
  readonly findings: PiiFinding[];
  /** Every pattern match, kept or not, and every masked UUID; unordered. */
  readonly spans: PiiSpan[];
}

/**
 * Finds PII in free text. Overlapping candidates are resolved by score, then length: a Luhn-valid
 * card beats the phone number hiding in it; a valid SSN beats a phone shape.
 */
export function findPii(text: string, options: FindPiiOptions = {}): PiiFinding[] {
  return scanPii(text, options).findings;
}

/**
 * {@link findPii} from offset `from` on: patterns start matching there, while their look-behinds
 * and context words still read the text before it. The streaming output gate resumes at a point
 * no earlier match covered, so the findings after it are those of a scan of the whole text.
 */
export function scanPii(text: string, options: FindPiiOptions & { readonly from?: number } = {}): PiiScan {
  const minScore = options.minScore ?? 0.3;
  const from = options.from ?? 0;
  const only = options.types ? new Set(options.types) : undefined;
  const candidates: PiiFinding[] = [];
  const spans: PiiSpan[] = [];
  // Full-width digits and letters (１３８…, ＠) read as the ASCII ones: one UTF-16 unit each, so
  // offsets into the folded text are offsets into the text as given.
  const folded = foldWidth(text);
  // Ids (tickets, tasks, sessions) are UUIDs, whose digit runs can pass for a card or a phone
  // number: the patterns run on the text with them masked (same length, so offsets hold).
  const masked = maskUuids(folded);
  if (masked !== folded) for (const s of uuidSpans(folded, from)) spans.push(s);
  text = masked;
  // One pass over the text rules out most recognisers (an answer without 11 digits holds no
  // mobile number), so most answers run few or none of the patterns.
  const profile = textProfile(from > 0 ? text.slice(from) : text);
  for (const rec of PII_RECOGNISERS) {
    if (only && !only.has(rec.type)) continue;
    if (!rec.needs(profile)) continue;
    // exec on the recogniser's own regex, not matchAll (which builds a new RegExp per call).
    const re = rec.pattern;
    re.lastIndex = from;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m[0].length === 0) re.lastIndex++; // as matchAll steps past an empty match
      spans.push({ start: m.index, end: m.index + m[0].length });
      const groupIdx = rec.reportGroup ? m.slice(1).findIndex((g) => g !== undefined) : -1;
      const value = groupIdx >= 0 ? m[groupIdx + 1]! : m[0];
      const start = groupIdx >= 0 ? m.index + m[0].lastIndexOf(value) : m.index;
      const trimmed = value.replace(/[\s.,-]+$/, '');
      const scored = rec.score(trimmed);
      let { score, reason } = scored;
      const valid = scored.valid;
      if (score <= 0) continue;
      if (rec.context?.test(text.slice(Math.max(0, start - CONTEXT_WINDOW), start))) {
        score = Math.min(0.99, score + CONTEXT_BOOST);
        reason += '; context word nearby';
      }
      // A failed validator keeps the finding but never lets context lift it into the high tier.
      if (valid === false) score = Math.min(score, HIGH_TIER - 0.01);
      if (score < minScore) continue;
      candidates.push({
        type: rec.type,
        start,
        end: start + trimmed.length,
        score: Math.round(score * 100) / 100,
        tier: valid !== false && score >= HIGH_TIER ? 'high' : 'low',
        reason,
      });
    }
  }
  candidates.sort((a, b) => b.score - a.score || b.end - b.start - (a.end - a.start));
  const kept: PiiFinding[] = [];
  for (const c of candidates) {
    if (kept.some((k) => c.start < k.end && k.start < c.end)) continue;
    kept.push(c);
  }
  return { findings: kept.sort((a, b) => a.start - b.start), spans };
}

const FULL_WIDTH = /[\uff01-\uff5e]/g;

/** `text` with the full-width forms of ASCII (U+FF01–FF5E) folded to ASCII, length unchanged. */
function foldWidth(text: string): string {
  FULL_WIDTH.lastIndex = 0;
  if (!FULL_WIDTH.test(text)) return text;
  return text.replace(FULL_WIDTH, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
}
