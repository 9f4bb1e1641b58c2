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
  /**
   * Its content is the engine's data, not the project's: the audit database, the watermark key,
   * the tools' data (other tenants' records), session transcripts. No tool reads it either.
   * Settings, agent definitions and VCS files stay readable (they only must not be written).
   */
  readonly secret?: boolean;
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
      secret: true,
    },
    {
      path: posix.join(home, '.twinline'),
      tree: true,
      what: 'user settings, trusted folders and agent definitions',
      secret: true,
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
      secret: true,
    });
  }
  for (const raw of roots.files ?? []) {
    if (!raw || raw === ':memory:') continue;
    const file = posix.resolve(project, raw);
    out.push({
      path: file,
      tree: false,
      what: 'engine state (audit database, watermark key or settings)',
      secret: true,
    });
    for (const suffix of SQLITE_SIBLINGS) {
      out.push({ path: `${file}${suffix}`, tree: false, what: 'the audit database journal', secret: true });
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

/** Inside a `.twinline` folder, what a person keeps there to be read: settings and agents. */
const READABLE_IN_STATE = /^(?:settings(?:\.local)?\.json|trustedFolders\.json|agents(?:\/.*)?)$/i;

/**
 * True when the secret tree `entry` keeps `rel` (a path relative to it, `/`-separated) readable:
 * only a `.twinline` folder does, for the settings, trust and agent definitions a person keeps
 * there. The process sandbox hides the rest of such a folder entry by entry.
 */
export function readableInStateTree(entry: EngineStatePath, rel: string): boolean {
  return posix.basename(entry.path) === '.twinline' && READABLE_IN_STATE.test(rel);
}

/**
 * The secret engine-state path `absPath` falls in (its content is the engine's data: see
 * `EngineStatePath.secret`), or undefined — what no tool may read. Lexical, like
 * {@link matchEngineState}; the read tools check their real targets against the same list.
 */
export function matchSecretEngineState(
  absPath: string,
  paths: readonly EngineStatePath[],
): EngineStatePath | undefined {
  const p = posix.resolve('/', absPath).toLowerCase();
  for (const e of paths) {
    if (!e.secret) continue;
    const base = e.path.toLowerCase();
    if (p === base && !e.tree) return e;
    if (!e.tree || !(p === base || p.startsWith(`${base}/`))) continue;
    // What a person keeps in a `.twinline/` folder to be read (settings, agents) is readable;
    // the folder itself is not searched or listed (a walk from it would reach the rest).
    const rel = p === base ? '' : p.slice(base.length + 1);
    if (readableInStateTree(e, rel)) continue;
    return e;
  }
  return undefined;
}
