import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Identity } from '../core/index.js';
import {
  classifyOutbound,
  embedWatermark,
  isJsonDocument,
  redactText,
  type WatermarkChannels,
  watermarkModeFor,
  watermarkToken,
} from '../gates/index.js';
import type { RequestResult } from '../lines/index.js';

export interface OutputGateOptions {
  /** The deployment's watermark key; each tenant's keys derive from it. */
  readonly watermarkKey: string;
  /** How each channel carries the watermark (config `watermark`; default: in the text). */
  readonly watermarkChannels?: WatermarkChannels;
  /** Domains inside the organisation: addresses there are not "outside". */
  readonly internalDomains?: readonly string[];
}

/** What the output gate adds to an answer. */
export interface GatedOutput {
  readonly outputGate: { verdict: string; reasons: readonly string[] };
  /**
   * The session watermark as a token (`twm2.…`, opaque without the tenant's key), unless the
   * channel has watermarks off: the only mark of a JSON answer or on a `field` channel.
   */
  readonly watermark?: string;
}

/**
 * The output gate on every answer before it leaves (seed 004 §3.2–3.3): an answer that steers
 * data to an outside destination is withheld (block) or marked (flag); PII in free text is masked
 * for the viewer's data level; and the session watermark (tenant, user, session, channel) goes
 * with it — invisibly in free text and as a `watermark` field, as the channel's mode says — so a
 * leaked sample can be traced with `twinline watermark decode`.
 */
export function gateOutput(
  identity: Identity,
  result: RequestResult,
  channel: string,
  options: OutputGateOptions,
): RequestResult & GatedOutput {
  const outbound = classifyOutbound(result.text, { internalDomains: options.internalDomains ?? [] });
  let text = result.text;
  if (outbound.verdict === 'block') {
    text = `The answer was withheld by the output gate: it directed data to an outside destination (${outbound.destinations.slice(0, 3).join(', ')}).`;
  } else if (outbound.verdict === 'flag') {
    text = `${text}\n\n[Output gate: this answer mentions sending data outside (${outbound.reasons.slice(0, 2).join('; ')}); check before acting on it.]`;
  }
  text = redactText(text, identity.dataLevel).text;
  const mode = watermarkModeFor(options.watermarkChannels, channel);
  const wm = { tenant: identity.tenant, user: identity.user, session: result.sessionId, channel };
  const key = { key: options.watermarkKey };
  // A JSON answer is left as it is: its mark travels in the field only.
  if (mode === 'text' && !isJsonDocument(text)) text = embedWatermark(text, wm, key);
  return {
    ...result,
    text,
    outputGate: { verdict: outbound.verdict, reasons: outbound.reasons },
    ...(mode !== 'off' ? { watermark: watermarkToken(wm, key) } : {}),
  };
}

/**
 * The deployment's watermark key: `TWINLINE_WATERMARK_KEY`, else a random key kept in `file`
 * (created on first use, readable by the owner only) so every process of a deployment agrees.
 */
export function loadWatermarkKey(file: string, env: Readonly<Record<string, string | undefined>>): string {
  const fromEnv = env.TWINLINE_WATERMARK_KEY;
  if (fromEnv) return fromEnv;
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const key = randomBytes(32).toString('hex');
  try {
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (err) {
    // Another process created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  }
}
