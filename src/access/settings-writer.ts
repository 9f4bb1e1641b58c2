import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../core/index.js';
import type { RuleEffect } from './rule-parser.js';

/**
 * The engine writing its own settings on a host's instruction ("always allow this" kept in a
 * settings file). This is code the engine runs, never a tool call: the tools' built-in deny on the
 * engine's own state (docs/access.md, "Engine state") is untouched, and what may be written is
 * decided beforehand by `planPermissionUpdate`. A file that is not a JSON object is never
 * overwritten; the write is atomic (a temporary file renamed into place).
 */
function readSettings(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError('access.settings-unreadable', (err as Error).message, { where: path });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(
      'access.settings-invalid',
      `not valid JSON, left as it is: ${(err as Error).message}`,
      {
        where: path,
      },
    );
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw new ConfigError('access.settings-invalid', 'must be a JSON object; left as it is', { where: path });
  }
  return data as Record<string, unknown>;
}

function writeSettings(path: string, data: Record<string, unknown>): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now().toString(36)}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

function permissionsOf(data: Record<string, unknown>, path: string): Record<string, unknown> {
  const p = data['permissions'];
  if (p === undefined) return {};
  if (!p || typeof p !== 'object' || Array.isArray(p)) {
    throw new ConfigError('access.settings-invalid', 'permissions must be an object; left as it is', {
      where: path,
    });
  }
  return p as Record<string, unknown>;
}

/** Adds, replaces or removes rules of one effect in a settings file; returns the file's rules of that effect. */
export function writeSettingsRules(
  path: string,
  effect: RuleEffect,
  rules: readonly string[],
  op: 'add' | 'replace' | 'remove',
): readonly string[] {
  const data = readSettings(path);
  const perms = permissionsOf(data, path);
  const current = perms[effect];
  if (current !== undefined && (!Array.isArray(current) || current.some((r) => typeof r !== 'string'))) {
    throw new ConfigError('access.settings-invalid', `permissions.${effect} must be an array of strings`, {
      where: path,
    });
  }
  const list = (current as string[] | undefined) ?? [];
  const next =
    op === 'replace'
      ? [...new Set(rules)]
      : op === 'remove'
        ? list.filter((r) => !rules.includes(r))
        : [...new Set([...list, ...rules])];
  writeSettings(path, { ...data, permissions: { ...perms, [effect]: next } });
  return next;
}

/** Sets the start mode (`permissions.defaultMode`) of a settings file. */
export function writeSettingsMode(path: string, mode: string): void {
  const data = readSettings(path);
  const perms = permissionsOf(data, path);
  const { approvalMode: _superseded, ...rest } = data;
  writeSettings(path, { ...rest, permissions: { ...perms, defaultMode: mode } });
}
