import { existsSync, lstatSync, mkdirSync, readlinkSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { WorkspaceToolError } from '../errors.js';
import type { ConfinedProfile, HostPath, SandboxPlan } from './bubblewrap-args.js';
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
  };
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
