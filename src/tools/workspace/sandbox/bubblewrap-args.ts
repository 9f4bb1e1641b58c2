/**
 * The bubblewrap command line for one sandboxed run, built from a plan whose paths were already
 * looked at (pure: no I/O, so the mount layout is testable on its own). See docs/sandbox.md.
 */

/** A path of the host as the sandbox shows it: a directory or file bound, or a symbolic link recreated. */
export type HostPath =
  | { readonly path: string; readonly kind: 'bind' }
  | { readonly path: string; readonly kind: 'symlink'; readonly target: string };

/** A path of a visible root the sandbox covers: a folder by an empty read-only tmpfs, a file by `/dev/null`. */
export interface HiddenPath {
  readonly path: string;
  readonly kind: 'dir' | 'file';
}

export type ConfinedProfile = 'read-only' | 'workspace-write' | 'network';

export interface SandboxPlan {
  readonly profile: ConfinedProfile;
  /** Working directory of the command (the workspace root). */
  readonly cwd: string;
  /** The workspace root and extra roots: writable under `workspace-write`, read-only otherwise. */
  readonly workspaceRoots: readonly string[];
  /** Further directories shown read-only (the configurable read allowlist). */
  readonly readRoots: readonly string[];
  /** System directories (`/usr`, `/bin` → `usr/bin`, …) shown read-only. */
  readonly system: readonly HostPath[];
  /** Existing protected paths inside the workspace roots, kept read-only under `workspace-write`. */
  readonly protectedPaths: readonly string[];
  /** Protected directories that must themselves stay in place (bound onto themselves, so not renamable). */
  readonly pinnedDirs: readonly string[];
  /** The sandbox's own `/etc`: what programs need of the host's, never shadow, sudoers or keys. */
  readonly etcDir: string;
  /** `network`: the host directory with the egress proxy's socket, shown at {@link EGRESS_DIR}. */
  readonly egressDir?: string;
  /** The bubblewrap build refuses nested user namespaces (`--disable-userns`, bubblewrap ≥ 0.8). */
  readonly disableUserns: boolean;
  /** Extra files (the Node binary for the egress bridge) shown read-only at their own path. */
  readonly extraFiles?: readonly string[];
  /** Secret engine state inside the visible roots (the audit database, the data folder): unreadable to every profile. */
  readonly hiddenPaths?: readonly HiddenPath[];
}

/** Where the sandbox sees the egress proxy's socket directory. */
export const EGRESS_DIR = '/run/twinline-egress';
/** The sandbox's home and temporary directory: a private tmpfs. */
export const SANDBOX_HOME = '/tmp';

export function bubblewrapArgs(plan: SandboxPlan): string[] {
  const a: string[] = [
    // Every namespace: no network (the egress bridge is the only way out), own PIDs (the whole
    // tree dies with its first process), IPC, UTS, cgroup, and a user namespace.
    '--unshare-all',
    '--unshare-user',
    ...(plan.disableUserns ? ['--disable-userns'] : []),
    '--die-with-parent',
    // A new session: no TIOCSTI into a terminal, and `setsid` inside changes nothing outside.
    '--new-session',
    // Root on the host stays powerless inside: no capability to remount or unmount anything.
    '--cap-drop',
    'ALL',
  ];
  for (const p of plan.system) {
    if (p.kind === 'symlink') a.push('--symlink', p.target, p.path);
    else a.push('--ro-bind', p.path, p.path);
  }
  a.push('--ro-bind', plan.etcDir, '/etc');
  a.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', SANDBOX_HOME);
  for (const f of plan.extraFiles ?? []) a.push('--ro-bind', f, f);
  for (const r of plan.readRoots) a.push('--ro-bind', r, r);
  const writable = plan.profile !== 'read-only';
  for (const r of plan.workspaceRoots) a.push(writable ? '--bind' : '--ro-bind', r, r);
  if (writable) {
    for (const d of plan.pinnedDirs) a.push('--bind', d, d);
    for (const p of plan.protectedPaths) a.push('--ro-bind', p, p);
  }
  // Last of the roots' mounts, so no bind above uncovers them; a tmpfs made read-only takes no
  // writes either, and `/dev/null` over a file reads empty and keeps nothing.
  for (const h of plan.hiddenPaths ?? []) {
    if (h.kind === 'dir') a.push('--tmpfs', h.path, '--remount-ro', h.path);
    else a.push('--ro-bind', '/dev/null', h.path);
  }
  if (plan.profile === 'network' && plan.egressDir) a.push('--ro-bind', plan.egressDir, EGRESS_DIR);
  a.push('--chdir', plan.cwd, '--');
  return a;
}
