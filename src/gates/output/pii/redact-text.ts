import { DATA_LEVELS, type DataLevel, dataLevelRank } from '../../../core/index.js';
import { type FindPiiOptions, findPii, type PiiFinding } from './find.js';
import { maskValue } from './mask.js';
import type { PiiType } from './recognisers.js';

/** Lowest data level that may see a PII type unmasked in free text. */
export type TextRedactionPolicy = Readonly<Record<PiiType, DataLevel>>;

/** Defaults (docs/gates.md): identifiers and money need L4, contact data L3, names L2. */
export const DEFAULT_TEXT_POLICY: TextRedactionPolicy = {
  CN_RESIDENT_ID: 'L4',
  CREDIT_CARD: 'L4',
  IBAN_CODE: 'L4',
  US_SSN: 'L4',
  PASSPORT: 'L4',
  CN_MOBILE: 'L3',
  PHONE_NUMBER: 'L3',
  EMAIL_ADDRESS: 'L3',
  IP_ADDRESS: 'L3',
  STREET_ADDRESS: 'L3',
  PERSON: 'L2',
  DATE_TIME: 'L1',
};

export interface RedactTextResult {
  readonly text: string;
  /** What was masked (offsets into the INPUT text). */
  readonly redacted: readonly PiiFinding[];
}

/**
 * Masks the PII in `text` that a viewer at `viewerLevel` may not see. Both confidence tiers are
 * masked — a failed checksum lowers certainty, not the harm of showing a real number.
 */
export function redactText(
  text: string,
  viewerLevel: DataLevel,
  options: { policy?: Partial<TextRedactionPolicy> } & FindPiiOptions = {},
): RedactTextResult {
  if (!DATA_LEVELS.includes(viewerLevel)) throw new TypeError(`unknown data level ${String(viewerLevel)}`);
  const hidden = findPii(text, options).filter(hiddenFrom(viewerLevel, options.policy));
  if (hidden.length === 0) return { text, redacted: [] };
  return { text: maskSlice(text, hidden, 0, text.length), redacted: hidden };
}

/** Whether a viewer at `viewerLevel` must not see a finding's value (the policy of {@link redactText}). */
export function hiddenFrom(
  viewerLevel: DataLevel,
  policy: Partial<TextRedactionPolicy> = {},
): (f: PiiFinding) => boolean {
  if (!DATA_LEVELS.includes(viewerLevel)) throw new TypeError(`unknown data level ${String(viewerLevel)}`);
  const full = { ...DEFAULT_TEXT_POLICY, ...policy };
  const rank = dataLevelRank(viewerLevel);
  return (f) => dataLevelRank(full[f.type]) > rank;
}

/**
 * `text.slice(from, to)` with the values of `hidden` masked as {@link redactText} masks them.
 * `hidden` are sorted, non-overlapping findings inside `[from, to)`.
 */
export function maskSlice(text: string, hidden: readonly PiiFinding[], from: number, to: number): string {
  let out = '';
  let at = from;
  for (const f of hidden) {
    out += text.slice(at, f.start) + maskValue(text.slice(f.start, f.end));
    at = f.end;
  }
  return out + text.slice(at, to);
}
