import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../core/index.js';
import type { AccessSettingsFile, SettingsLayer } from './settings.js';

export interface SettingsPaths {
  readonly user: string;
  readonly project: string;
  readonly local: string;
  readonly managed?: string;
}

/** Default settings locations: `~/.twinline/settings.json`, `<project>/.twinline/settings{,.local}.json`. */
export function settingsPaths(
  projectRoot: string,
  homeDir: string = homedir(),
  managed?: string,
): SettingsPaths {
  return {
    user: join(homeDir, '.twinline', 'settings.json'),
    project: join(projectRoot, '.twinline', 'settings.json'),
    local: join(projectRoot, '.twinline', 'settings.local.json'),
    ...(managed !== undefined ? { managed } : {}),
  };
}

/**
 * Reads the settings files that exist. A file that exists but is not valid JSON, or whose
 * `permissions` lists are not string arrays, is a ConfigError naming the file and field.
 */
export function loadSettingsLayers(paths: SettingsPaths): SettingsLayer[] {
  const out: SettingsLayer[] = [];
  for (const level of ['user', 'project', 'local', 'managed'] as const) {
    const path = paths[level];
    if (path === undefined) continue;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new ConfigError('access.settings-unreadable', (err as Error).message, { where: path });
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new ConfigError('access.settings-invalid', `not valid JSON: ${(err as Error).message}`, {
        where: path,
      });
    }
    if (!data || typeof data !== 'object' || Array.isArray(data)) {
      throw new ConfigError('access.settings-invalid', 'must be a JSON object', { where: path });
    }
    const perms = (data as { permissions?: unknown }).permissions;
    if (perms !== undefined) {
      if (!perms || typeof perms !== 'object') {
        throw new ConfigError('access.settings-invalid', 'permissions must be an object', { where: path });
      }
      for (const key of ['allow', 'ask', 'deny'] as const) {
        const list = (perms as Record<string, unknown>)[key];
        if (list !== undefined && (!Array.isArray(list) || list.some((r) => typeof r !== 'string'))) {
          throw new ConfigError('access.settings-invalid', `permissions.${key} must be an array of strings`, {
            where: path,
          });
        }
      }
    }
    out.push({ level, path, settings: data as AccessSettingsFile });
  }
  return out;
}
