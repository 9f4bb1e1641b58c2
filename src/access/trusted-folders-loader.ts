import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError } from '../core/index.js';
import type { FolderTrustView } from './trust-gate.js';
import { resolveFolderTrust, TRUST_VALUES, type TrustDecision, type TrustValue } from './trusted-folders.js';

/** Default location of the trusted-folders file under a home directory. */
export function trustedFoldersPath(homeDir: string = homedir()): string {
  return join(homeDir, '.twinline', 'trustedFolders.json');
}

/**
 * Reads `{ "<absolute path>": "TRUST_FOLDER" | "TRUST_PARENT" | "DO_NOT_TRUST" }`. A missing file
 * means no rules (every folder unknown → untrusted). A malformed file is an error, not "no rules",
 * so a typo cannot silently change trust.
 */
export function loadTrustedFolders(path: string): Record<string, TrustValue> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError('access.trust-unreadable', (err as Error).message, { where: path });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ConfigError('access.trust-invalid', `not valid JSON: ${(err as Error).message}`, {
      where: path,
    });
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw new ConfigError('access.trust-invalid', 'must be an object of path → trust value', { where: path });
  }
  const out: Record<string, TrustValue> = {};
  for (const [k, v] of Object.entries(data as Record<string, unknown>)) {
    if (!TRUST_VALUES.includes(v as TrustValue)) {
      throw new ConfigError('access.trust-invalid', `"${k}": must be one of ${TRUST_VALUES.join(', ')}`, {
        where: path,
      });
    }
    if (!k.startsWith('/')) {
      throw new ConfigError('access.trust-invalid', `"${k}": paths must be absolute`, { where: path });
    }
    out[k] = v as TrustValue;
  }
  return out;
}

/**
 * Whether `cwd` is trusted, from the trusted-folders file under `homeDir` (or the given path):
 * what the trust gate of every door asks. Reads one small JSON file; loads nothing else.
 */
export function loadFolderTrust(options: {
  readonly cwd: string;
  readonly homeDir?: string;
  readonly trustedFoldersPath?: string;
}): FolderTrustView & { readonly decision: TrustDecision } {
  const folder = resolve(options.cwd);
  const home = resolve(options.homeDir ?? homedir());
  const decision = resolveFolderTrust(
    folder,
    loadTrustedFolders(options.trustedFoldersPath ?? trustedFoldersPath(home)),
  );
  return { trusted: decision.trust === 'trusted', folder, decision };
}
