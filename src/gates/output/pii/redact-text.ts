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
  const policy = { ...DEFAULT_TEXT_POLICY, ...options.policy };
  const rank = dataLevelRank(viewerLevel);
  const hidden = findPii(text, options).filter((f) => dataLevelRank(policy[f.type]) > rank);
  if (hidden.length === 0) return { text, redacted: [] };
  let out = '';
  let at = 0;
  for (const f of hidden) {
    out += text.slice(at, f.start) + maskValue(text.slice(f.start, f.end));
    at = f.end;
  }
  return { text: out + text.slice(at), redacted: hidden };
}
