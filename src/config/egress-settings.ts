import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { EgressOptions } from '../gates/index.js';
import type { TwinlineConfig } from './load-config.js';

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

/** Where a deployment keeps its watermark key: in its data folder. */
export function watermarkKeyFile(config: Pick<TwinlineConfig, 'dataDir'>): string {
  return join(config.dataDir, 'watermark.key');
}

/**
 * The egress gate's settings for a deployment (docs/gates.md, "Egress"): the `egress` and
 * `watermark` sections of its config and its watermark key. Every door builds its `Egress` from this.
 */
export function egressSettings(
  config: TwinlineConfig,
  env: Readonly<Record<string, string | undefined>>,
): EgressOptions {
  const e = config.egress;
  return {
    watermarkKey: loadWatermarkKey(watermarkKeyFile(config), env),
    internalDomains: e?.internalDomains ?? [],
    ...(config.watermark ? { watermarkChannels: config.watermark } : {}),
    ...(e?.stream ? { stream: e.stream } : {}),
  };
}
