import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../config/index.js';
import { sha256Hex } from '../core/index.js';
import { CanaryError } from './errors.js';

/**
 * Hash of what a config version means: the config file and every policy, users and roles file it
 * loads (a policy edit is a new version even when the config file is unchanged).
 */
export function hashConfigVersion(configPath: string): string {
  const file = resolve(configPath);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new CanaryError('canary.config-unreadable', `cannot read config: ${(err as Error).message}`, {
      where: file,
    });
  }
  const config = loadConfig(file);
  const parts = [`config\u0000${text}`];
  for (const p of config.policies) parts.push(`policy\u0000${readFileSync(p, 'utf8')}`);
  return sha256Hex(parts.join('\u0001'));
}
