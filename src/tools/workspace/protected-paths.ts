import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { type EngineStatePath, matchSecretEngineState } from '../engine-state.js';
import { WorkspaceProtectedPathError } from './errors.js';

/** A path no file tool may write: a folder (`tree`) with everything below it, or one file. */
export interface ProtectedPath {
  readonly path: string;
  readonly tree: boolean;
  readonly what: string;
}

/** The real path of `p`, or of its deepest existing ancestor joined with the rest. */
function realOfNearest(p: string): string {
  const rest: string[] = [];
  let cur = resolve(p);
  for (;;) {
    try {
      return join(realpathSync(cur), ...rest.reverse());
    } catch {
      const parent = dirname(cur);
      if (parent === cur) return resolve(p);
      rest.push(basename(cur));
      cur = parent;
    }
  }
}

/**
 * A check for the write tools over real paths: the target (already resolved through every
 * symlink) is refused when it is, or lies in, a protected path — compared both as written and
 * through the protected path's own symlinks (a project under /tmp → /private/tmp), ignoring case.
 * Returns what the path is, or undefined. The list comes from the access layer's
 * `engineStatePaths`; real paths are taken per check, so a folder created later is covered.
 */
export function protectedPathCheck(list: readonly ProtectedPath[]): (realPath: string) => string | undefined {
  return (realPath) => {
    const target = realPath.toLowerCase();
    for (const e of list) {
      for (const base of new Set([resolve(e.path), realOfNearest(e.path)])) {
        const b = base.toLowerCase();
        if (target === b || (e.tree && target.startsWith(`${b}/`))) return e.what;
      }
    }
    return undefined;
  };
}

/**
 * A check for the read tools over real paths: the target is refused when it lies in the engine's
 * secret state (`matchSecretEngineState`: the audit database, the watermark key, the data folder),
 * compared as written and through the state folders' own symlinks. Returns what it is, or
 * undefined.
 */
export function secretPathCheck(list: readonly EngineStatePath[]): (realPath: string) => string | undefined {
  return (realPath) => {
    const variants = list.flatMap((e) =>
      [...new Set([resolve(e.path), realOfNearest(e.path)])].map((path) => ({ ...e, path })),
    );
    return matchSecretEngineState(realPath, variants)?.what;
  };
}

/** Throws when a read tool's resolved target is the engine's own data. */
export function assertReadable(
  realPath: string,
  input: string,
  check: ((realPath: string) => string | undefined) | undefined,
  tool: string,
): void {
  refuseProtected(realPath, input, check, tool, "the engine's own data", 'read');
}

/** Throws when a write tool's resolved target is protected. */
export function assertWritable(
  realPath: string,
  input: string,
  check: ((realPath: string) => string | undefined) | undefined,
  tool: string,
): void {
  refuseProtected(realPath, input, check, tool, "the engine's own state", 'write');
}

function refuseProtected(
  realPath: string,
  input: string,
  check: ((realPath: string) => string | undefined) | undefined,
  tool: string,
  whose: string,
  verb: 'read' | 'write',
): void {
  const what = check?.(realPath);
  if (what) {
    throw new WorkspaceProtectedPathError(
      input,
      `it resolves to ${realPath}, ${whose} (${what}); no tool may ${verb} it`,
      tool,
    );
  }
}
