/**
 * Session watermarks that a reader does not notice and a parser does not trip over (docs/gates.md,
 * "Watermarks"). Tenant, user, session and channel are sealed with the tenant's own keys
 * (`seal.ts`: encrypted and authenticated, so without the key a mark reads as noise and cannot be
 * forged), written as invisible grapheme extenders (`symbols.ts`) only at punctuation boundaries
 * (`boundaries.ts`), and repeated through the text so that a copied excerpt of about two
 * sentences still carries a whole frame. A text that is JSON is never touched: structured
 * answers carry the mark in a field instead (`watermarkToken`).
 *
 * Stripping stays possible — one pass removes the characters — so this attributes careless
 * leaks; it does not stop a determined one.
 */

import { findBoundaries } from './boundaries.js';
import { WatermarkError } from './keys.js';
import { openWatermark, sealWatermark, type Watermark } from './seal.js';
import {
  type FoundFragment,
  findFragments,
  fragmentsOf,
  fromSevenBit,
  MAX_FRAGMENTS,
  stripSymbols,
} from './symbols.js';

export { WatermarkError } from './keys.js';
export type { Watermark } from './seal.js';

export interface WatermarkKeyOptions {
  /** The deployment's watermark key (`TWINLINE_WATERMARK_KEY`); each tenant's keys derive from it. */
  readonly key: string | Uint8Array;
}

export interface EmbedOptions extends WatermarkKeyOptions {
  /**
   * Fragments a frame is cut into (1–4). Default 2 (1 when the text has a single place for a
   * mark): every sentence carries at least one fragment, so two consecutive sentences hold a
   * whole frame, at half the size of a whole frame in every place (docs/gates.md).
   */
  readonly fragments?: number;
}

export interface WatermarkDecodeOptions extends WatermarkKeyOptions {
  /** The tenants whose keys to try (a mark names its tenant only by the key that opens it). */
  readonly tenants: readonly string[];
}

export interface DecodedWatermark extends Watermark {
  /** How many complete, authentic frames the text carried. */
  readonly frames: number;
}

/** Prefix of a watermark written as a token (a JSON field, a header): `twm2.<base64url>`. */
export const WATERMARK_TOKEN_PREFIX = 'twm2.';
const TOKEN_RE = /twm2\.([A-Za-z0-9_-]{16,})/g;

// Embedding and the token seal the same watermark for one answer, one after the other: keep the
// last one sealed (a cache over sessions would only miss — each request is a new session).
let last: { key: string | Uint8Array; wm: Watermark; sealed: Uint8Array } | undefined;

/** The sealed bytes of a watermark (IV ‖ ciphertext). */
export function packWatermark(wm: Watermark, options: WatermarkKeyOptions): Uint8Array {
  const l = last;
  if (
    l &&
    l.key === options.key &&
    l.wm.tenant === wm.tenant &&
    l.wm.user === wm.user &&
    l.wm.session === wm.session &&
    l.wm.channel === wm.channel
  )
    return l.sealed;
  const sealed = sealWatermark(wm, options.key);
  last = { key: options.key, wm: { ...wm }, sealed };
  return sealed;
}

/** Opens sealed bytes with one of the tenants' keys; undefined when damaged, forged or foreign. */
export function unpackWatermark(bytes: Uint8Array, options: WatermarkDecodeOptions): Watermark | undefined {
  return openWatermark(bytes, options.key, options.tenants);
}

/** A whole frame as invisible symbols, in one piece. */
export function watermarkFrame(wm: Watermark, options: WatermarkKeyOptions): string {
  return fragmentsOf(packWatermark(wm, options), 1).join('');
}

/** The watermark as a visible token for a JSON field or a header (`twm2.…`, opaque without the key). */
export function watermarkToken(wm: Watermark, options: WatermarkKeyOptions): string {
  return WATERMARK_TOKEN_PREFIX + Buffer.from(packWatermark(wm, options)).toString('base64url');
}

/**
 * Writes the watermark into `text` at its punctuation boundaries, the frame's fragments in turn,
 * repeated to the end. Every character of the text stays, in order; JSON text, and a text with
 * no boundary at all (a single token), come back unchanged — carry `watermarkToken` beside them.
 */
export function embedWatermark(text: string, wm: Watermark, options: EmbedOptions): string {
  const b = findBoundaries(text);
  const frame = packWatermark(wm, options);
  if (b.positions.length === 0) return text;
  const wanted = options.fragments ?? 2;
  const count = Math.max(1, Math.min(MAX_FRAGMENTS, Math.floor(wanted), b.positions.length));
  const pieces = fragmentsOf(frame, count);
  let out = '';
  let from = 0;
  b.positions.forEach((at, k) => {
    out += text.slice(from, at) + pieces[k % pieces.length]!;
    from = at;
  });
  // Fewer boundaries than one frame needs: the rest of the frame at the last one.
  if (b.positions.length < pieces.length) out += pieces.slice(b.positions.length).join('');
  return out + text.slice(from);
}

/** Removes every watermark (for comparing or re-watermarking text). */
export function stripWatermark(text: string): string {
  return stripSymbols(text);
}

/** The frames a text's fragments can be put back together as: runs of indices 0…count−1 in order. */
function assemble(fragments: readonly FoundFragment[]): number[][] {
  const out: number[][] = [];
  const seen = new Set<string>();
  const add = (values: number[]) => {
    const key = values.join(',');
    if (!seen.has(key)) {
      seen.add(key);
      out.push(values);
    }
  };
  for (let i = 0; i < fragments.length; i++) {
    const f = fragments[i]!;
    if (f.index !== 0) continue;
    // Forwards from an index 0 (the usual case), wrapping around the cycle.
    const picked: FoundFragment[] = [f];
    for (let j = i + 1; j < fragments.length && picked.length < f.count; j++) {
      const g = fragments[j]!;
      if (g.group === f.group && g.count === f.count && g.index === picked.length) picked.push(g);
    }
    if (picked.length === f.count) add(picked.flatMap((p) => [...p.values]));
  }
  // An excerpt may start mid-cycle: the last fragments of one frame before the first of the next.
  const byKey = new Map<string, FoundFragment[][]>();
  for (const f of fragments) {
    const k = `${f.group}/${f.count}`;
    const slots = byKey.get(k) ?? Array.from({ length: f.count }, () => []);
    slots[f.index]!.push(f);
    byKey.set(k, slots);
  }
  for (const slots of byKey.values()) {
    if (slots.some((s) => s.length === 0)) continue;
    // Distinct candidates per index, combined (bounded: a text has few distinct marks).
    const distinct = slots.map((s) => [...new Map(s.map((f) => [f.values.join(','), f.values])).values()]);
    let combos: number[][] = [[]];
    for (const options of distinct) {
      combos = combos.flatMap((c) => options.map((o) => [...c, ...o])).slice(0, 64);
    }
    for (const c of combos) add(c);
  }
  return out;
}

/**
 * Recovers the watermark from a (possibly partial, re-spaced) copy, trying each of `tenants`'
 * keys; also reads `twm2.` tokens. Undefined when nothing opens under them — a tampered,
 * forged or foreign mark, or none.
 */
export function decodeWatermark(text: string, options: WatermarkDecodeOptions): DecodedWatermark | undefined {
  if (!Array.isArray(options.tenants)) {
    throw new WatermarkError('gates.watermark-tenants', 'decoding needs the tenants whose keys to try', {
      where: 'decodeWatermark options.tenants',
    });
  }
  let found: Watermark | undefined;
  let frames = 0;
  const consider = (bytes: Uint8Array) => {
    const wm = openWatermark(bytes, options.key, options.tenants);
    if (!wm) return;
    frames++;
    found ??= wm;
  };
  for (const values of assemble(findFragments(text))) consider(fromSevenBit(values));
  for (const m of text.matchAll(TOKEN_RE)) consider(Buffer.from(m[1]!, 'base64url'));
  return found ? { ...found, frames } : undefined;
}
