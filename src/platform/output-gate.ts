import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Identity } from '../core/index.js';
import { classifyOutbound, embedWatermark, redactText } from '../gates/index.js';
import type { RequestResult } from '../lines/index.js';

export interface OutputGateOptions {
  /** HMAC key of session watermarks. */
  readonly watermarkKey: string;
  /** Domains inside the organisation: addresses there are not "outside". */
  readonly internalDomains?: readonly string[];
}

/**
 * The output gate on every answer before it leaves (seed 004 §3.2–3.3): an answer that steers
 * data to an outside destination is withheld (block) or marked (flag); PII in free text is masked
 * for the viewer's data level; and the session watermark (tenant, user, session, channel) is
 * embedded invisibly so a leaked sample can be traced with `twinline watermark decode`.
 */
export function gateOutput(
  identity: Identity,
  result: RequestResult,
  channel: string,
  options: OutputGateOptions,
): RequestResult & { readonly outputGate: { verdict: string; reasons: readonly string[] } } {
  const outbound = classifyOutbound(result.text, { internalDomains: options.internalDomains ?? [] });
  let text = result.text;
  if (outbound.verdict === 'block') {
    text = `The answer was withheld by the output gate: it directed data to an outside destination (${outbound.destinations.slice(0, 3).join(', ')}).`;
  } else if (outbound.verdict === 'flag') {
    text = `${text}\n\n[Output gate: this answer mentions sending data outside (${outbound.reasons.slice(0, 2).join('; ')}); check before acting on it.]`;
  }
  text = redactText(text, identity.dataLevel).text;
  text = embedWatermark(
    text,
    { tenant: identity.tenant, user: identity.user, session: result.sessionId, channel },
    { key: options.watermarkKey },
  );
  return { ...result, text, outputGate: { verdict: outbound.verdict, reasons: outbound.reasons } };
}

/**
 * The watermark key: `TWINLINE_WATERMARK_KEY`, else a random key kept in `file` (created on first
 * use, readable by the owner only) so every process of a deployment signs alike.
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
