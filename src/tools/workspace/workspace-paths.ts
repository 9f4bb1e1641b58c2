import { realpathSync } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ToolExecutionContext } from '../spec.js';
import { WorkspacePathError } from './errors.js';
import type { WorkspaceToolOptions } from './workspace-options.js';
import type { WorkspaceRoots } from './workspace-roots.js';

export type { WorkspaceRoots } from './workspace-roots.js';

/** The roots for one call: the context's `cwd` (set by trusted runtime code), else the configured root. */
export function rootsFor(
  options: WorkspaceToolOptions,
  ctx: Pick<ToolExecutionContext, 'cwd'>,
): WorkspaceRoots {
  return {
    root: realOrResolved(ctx.cwd ?? options.root ?? process.cwd()),
    extra: (options.extraRoots ?? []).map(realOrResolved),
  };
}

/** Roots are compared by their real paths (a root may itself sit behind a symlink such as /tmp). */
function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** True when `candidate` is `root` or inside it. Pure; both paths must be absolute and normalised. */
export function isWithin(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const rel = relative(root, candidate);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/**
 * Resolves a path argument to a real absolute path inside an allowed root, or throws
 * {@link WorkspacePathError} naming the path. Relative paths are taken from the workspace root;
 * symlinks are resolved with `realpath`, and for a path that does not exist yet the deepest
 * existing ancestor is resolved instead — so neither `..` nor a symlink (dangling ones included)
 * can lead outside. The caller must use the returned path, not the argument.
 */
export async function resolveInWorkspace(
  input: string,
  roots: WorkspaceRoots,
  tool: string,
): Promise<string> {
  if (typeof input !== 'string' || input === '' || input.includes('\0')) {
    throw new WorkspacePathError(String(input), 'empty path or NUL byte', tool);
  }
  const absolute = resolve(roots.root, input);
  const real = await realpathOfNearest(absolute, input, tool);
  const allowed = [roots.root, ...roots.extra];
  if (!allowed.some((r) => isWithin(r, real))) {
    throw new WorkspacePathError(input, `resolves to ${real}, outside the workspace ${allowed[0]}`, tool);
  }
  return real;
}

async function realpathOfNearest(absolute: string, input: string, tool: string): Promise<string> {
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return join(await realpath(current), ...missing.reverse());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      // A link whose target is missing would be followed by a later write: refuse it.
      const isLink = await lstat(current).then(
        (s) => s.isSymbolicLink(),
        () => false,
      );
      if (isLink) throw new WorkspacePathError(input, `${current} is a dangling symbolic link`, tool);
      const parent = dirname(current);
      if (parent === current) throw error;
      missing.push(current.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      current = parent;
    }
  }
}

/** A path for display, relative to the workspace root when inside it. */
export function displayPath(roots: WorkspaceRoots, real: string): string {
  return isWithin(roots.root, real) ? relative(roots.root, real) || '.' : real;
}
