import { join } from 'node:path';
import { engineStatePaths } from '../../engine-state.js';

/**
 * Paths inside a writable root that a sandboxed command never writes, even under
 * `workspace-write` (docs/sandbox.md): the engine's own state and the VCS control paths — the one
 * list the file tools' built-in deny reads too (`engineStatePaths`) — and shell start-up files,
 * which decide what runs the next time a person or a tool uses the folder.
 */

/** Start-up files of shells and tools, for a workspace that is (or contains) a home directory. */
export const STARTUP_FILES: readonly string[] = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.ssh',
  '.npmrc',
];

/**
 * Directories that are created (empty) before a writable run when missing, so they can be mounted
 * read-only: an empty `.twinline/` is the engine's own folder, and an empty `.git/hooks/` is git's
 * default layout. Without this, a command could create them and so plant settings or hooks.
 */
export const ENSURED_DIRS: readonly string[] = ['.twinline', '.git/hooks'];

/** Every protected path of one writable root, absolute, in mount order (parents first). */
export function protectedPathsOf(root: string, extra: readonly string[] = []): string[] {
  const state = engineStatePaths({ projectRoot: root, home: root, files: extra }).map((e) => e.path);
  return [...new Set([...state, ...STARTUP_FILES.map((p) => join(root, p))])];
}
