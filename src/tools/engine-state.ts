import { posix } from 'node:path';

/**
 * Version-control paths that make git run code (hooks, config-driven commands, submodules' own
 * repositories): writing one plants something that runs the next time a person or a tool uses
 * the folder. Relative to the project.
 */
export const VCS_CONTROL_PATHS: readonly string[] = [
  '.git/config',
  '.git/config.worktree',
  '.git/hooks',
  '.git/info/attributes',
  '.git/modules',
  '.gitconfig',
  '.config/git',
  '.gitmodules',
];

/**
 * Where the engine keeps its own state for one session. Everything a model could use to grant
 * itself permissions or rewrite what was recorded lives under these: the settings it reads
 * permissions from, trust, agent definitions, the audit database, the watermark key.
 */
export interface EngineStateRoots {
  /** The project (working) folder: `<project>/.twinline/` is engine state. */
  readonly projectRoot: string;
  /** The user's home: `~/.twinline/` (user settings, trusted folders, user agents). */
  readonly home: string;
  /**
   * State files kept elsewhere: the SQLite audit/store file (its `-wal`, `-shm` and `-journal`
   * siblings are protected with it), the watermark key, a managed settings file, a trusted-folders
   * file given explicitly.
   */
  readonly files?: readonly string[];
  /** State folders kept elsewhere: the data folder (store, watermark key, tool data), whole. */
  readonly folders?: readonly string[];
}

/** One protected path: a folder (`tree`: it and everything below) or a single file. */
export interface EngineStatePath {
  readonly path: string;
  readonly tree: boolean;
  /** What it is, for the refusal a model and an auditor read. */
  readonly what: string;
}

const SQLITE_SIBLINGS = ['-wal', '-shm', '-journal'];

/**
 * The engine-state paths of a session, absolute and normalised: the one list every protection
 * reads — the built-in deny of file-writing tools (`engineStateDenial` in src/access), the shell
 * classifier, and the process sandbox's read-only mounts. The project's VCS control paths are in
 * it too: nothing the engine runs may plant a hook. Pure (docs/access.md, "Engine state").
 */
export function engineStatePaths(roots: EngineStateRoots): EngineStatePath[] {
  const project = posix.resolve(roots.projectRoot);
  const home = posix.resolve(roots.home);
  const out: EngineStatePath[] = [
    {
      path: posix.join(project, '.twinline'),
      tree: true,
      what: 'project settings, agent definitions and the local audit database',
    },
    {
      path: posix.join(home, '.twinline'),
      tree: true,
      what: 'user settings, trusted folders and agent definitions',
    },
  ];
  for (const rel of VCS_CONTROL_PATHS) {
    out.push({
      path: posix.join(project, rel),
      tree: !rel.endsWith('config') && !rel.endsWith('attributes') && rel !== '.gitmodules',
      what: 'a version-control path that makes git run code',
    });
  }
  // The hosts that drive the engine (Claude Code, Qwen Code) read their permissions from these.
  for (const base of [project, home]) {
    for (const file of ['.claude/settings.json', '.claude/settings.local.json', '.qwen/settings.json']) {
      out.push({ path: posix.join(base, file), tree: false, what: "a host's permission settings" });
    }
  }
  for (const raw of roots.folders ?? []) {
    if (!raw) continue;
    out.push({
      path: posix.resolve(project, raw),
      tree: true,
      what: 'the data folder (audit database, watermark key, tool data)',
    });
  }
  for (const raw of roots.files ?? []) {
    if (!raw || raw === ':memory:') continue;
    const file = posix.resolve(project, raw);
    out.push({ path: file, tree: false, what: 'engine state (audit database, watermark key or settings)' });
    for (const suffix of SQLITE_SIBLINGS) {
      out.push({ path: `${file}${suffix}`, tree: false, what: 'the audit database journal' });
    }
  }
  return out;
}

/**
 * The engine-state path `absPath` falls in, or undefined. Lexical: `..`, `.` and repeated or
 * trailing slashes are collapsed, and the comparison ignores case (on a case-insensitive file
 * system `.TWINLINE/settings.json` is the same file). Symbolic links are resolved by the file
 * tools, which check their real target against the same list.
 */
export function isEngineStatePath(absPath: string, roots: EngineStateRoots): EngineStatePath | undefined {
  return matchEngineState(absPath, engineStatePaths(roots));
}

/** {@link isEngineStatePath} against a list already built (hot paths build it once). */
export function matchEngineState(
  absPath: string,
  paths: readonly EngineStatePath[],
): EngineStatePath | undefined {
  const p = posix.resolve('/', absPath).toLowerCase();
  for (const e of paths) {
    const base = e.path.toLowerCase();
    if (p === base || (e.tree && p.startsWith(`${base}/`))) return e;
  }
  return undefined;
}
