import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { type EngineStatePath, engineStatePaths, readableInStateTree } from '../../engine-state.js';
import { WorkspaceToolError } from '../errors.js';
import type { ConfinedProfile, HiddenPath, HostPath, SandboxPlan } from './bubblewrap-args.js';
import { ENSURED_DIRS, protectedPathsOf } from './protected-paths.js';

/** System directories every command needs, shown read-only (links such as `/bin → usr/bin` recreated). */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

export interface PlanInput {
  readonly profile: ConfinedProfile;
  readonly cwd: string;
  readonly workspaceRoots: readonly string[];
  readonly readRoots: readonly string[];
  readonly extraProtected: readonly string[];
  /** The sandbox's own `/etc` (see sandbox-etc.ts). */
  readonly etcDir: string;
  readonly egressDir?: string;
  readonly disableUserns: boolean;
  readonly extraFiles?: readonly string[];
  /**
   * The session's engine state (`engineStatePaths`): its secret part that lies inside a visible
   * root is hidden from every profile. Each root's own `.twinline/` is hidden in any case.
   */
  readonly engineState?: readonly EngineStatePath[];
}

function hostPath(path: string): HostPath | undefined {
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return { path, kind: 'symlink', target: readlinkSync(path) };
    return { path, kind: 'bind' };
  } catch {
    return undefined;
  }
}

let systemCache: HostPath[] | undefined;

/**
 * Looks at the host (which system paths exist, which protected paths exist in each writable root)
 * and returns the plan {@link bubblewrapArgs} turns into a command line. Under `workspace-write`
 * it first creates the {@link ENSURED_DIRS} that are missing, and refuses a root whose protected
 * path is a symbolic link (it could point anywhere, and binding it would follow it).
 */
export function planSandbox(input: PlanInput): SandboxPlan {
  systemCache ??= SYSTEM_DIRS.map(hostPath).filter((p): p is HostPath => p !== undefined);
  const protectedPaths: string[] = [];
  const pinned = new Set<string>();
  if (input.profile !== 'read-only') {
    for (const root of input.workspaceRoots) {
      for (const d of ENSURED_DIRS) {
        const abs = `${root}/${d}`;
        // `.git/hooks` only inside an existing repository; never create `.git` itself.
        if (!existsSync(dirname(abs)) || lstatSync(dirname(abs)).isSymbolicLink()) continue;
        if (!existsSync(abs) && !isLink(abs)) mkdirSync(abs);
      }
      for (const p of protectedPathsOf(
        root,
        input.extraProtected.filter((x) => isInside(root, x)),
      )) {
        if (linkOnTheWay(root, p)) {
          throw new WorkspaceToolError(
            'workspace.sandbox-protected-link',
            `${p} is a symbolic link; a protected path must be a real file or directory`,
            'shell',
            { path: p },
          );
        }
        if (!existsSync(p)) continue;
        protectedPaths.push(p);
        // Every directory between the root and the protected path is pinned in place: a directory
        // holding a mount can still be renamed, which would carry the protection away with it.
        for (let d = dirname(p); d !== root && isInside(root, d); d = dirname(d)) pinned.add(d);
      }
    }
  }
  return {
    profile: input.profile,
    cwd: input.cwd,
    workspaceRoots: input.workspaceRoots,
    readRoots: input.readRoots.filter((r) => existsSync(r)),
    system: systemCache,
    protectedPaths,
    pinnedDirs: [...pinned].sort((a, b) => a.length - b.length),
    etcDir: input.etcDir,
    ...(input.egressDir ? { egressDir: input.egressDir } : {}),
    disableUserns: input.disableUserns,
    ...(input.extraFiles ? { extraFiles: input.extraFiles } : {}),
    hiddenPaths: hiddenPathsOf([...input.workspaceRoots, ...input.readRoots], input.engineState ?? []),
  };
}

/**
 * What a sandboxed command must not read of the roots it sees: the secret engine state (the audit
 * database, the watermark key, the data folder, session records) the read tools refuse too. A
 * `.twinline/` folder keeps its settings and agent definitions visible (they are only protected
 * from writes), and everything else in it is covered entry by entry; any other secret folder is
 * covered whole. Paths that do not exist now need nothing: a read-only run cannot create them,
 * and a file a writable run creates holds only what that run wrote.
 */
function hiddenPathsOf(roots: readonly string[], state: readonly EngineStatePath[]): HiddenPath[] {
  const own = roots.flatMap((root) => engineStatePaths({ projectRoot: root, home: root }));
  const out = new Map<string, HiddenPath>();
  const hide = (path: string): void => {
    // Mounts cover real paths: a link on the way is followed, and what it names is hidden when
    // the sandbox shows it at all.
    const real = realPathOf(path);
    if (!real || !roots.some((r) => r === real || isInside(r, real))) return;
    const st = lstatSync(real);
    out.set(real, { path: real, kind: st.isDirectory() ? 'dir' : 'file' });
  };
  for (const entry of [...own, ...state]) {
    if (!entry.secret) continue;
    if (!(entry.tree && basename(entry.path) === '.twinline')) {
      hide(entry.path);
      continue;
    }
    const folder = realPathOf(entry.path);
    if (!folder || !lstatSync(folder).isDirectory()) continue;
    for (const name of readdirSync(folder)) {
      if (!readableInStateTree(entry, name)) hide(join(folder, name));
    }
  }
  // Parents first, so a folder hidden whole is not mounted over by one of its own entries.
  return [...out.values()].sort((a, b) => a.path.length - b.path.length);
}

function realPathOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** True when `path` or a directory between `root` and it is a symbolic link. */
function linkOnTheWay(root: string, path: string): boolean {
  for (let p = path; p !== root && isInside(root, p); p = dirname(p)) if (isLink(p)) return true;
  return false;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep);
}
