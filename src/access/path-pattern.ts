import { posix } from 'node:path';
import picomatch from 'picomatch';

/** The directories rule paths are resolved against. */
export interface PathRoots {
  /** `/x` in a rule means `<projectRoot>/x`. */
  readonly projectRoot: string;
  /** `./x` and `x` are relative to this. */
  readonly cwd: string;
  /** `~/x`. */
  readonly home: string;
  /**
   * Engine state files outside `<project>/.twinline/` and `~/.twinline/` (a configured audit
   * database, the watermark key, managed settings): protected like those folders (engine-state.ts).
   */
  readonly stateFiles?: readonly string[];
  /** Engine state folders elsewhere (the data folder), protected whole. */
  readonly stateFolders?: readonly string[];
}

/**
 * Compiles a gitignore-style path specifier into a matcher over absolute paths.
 * Roots: `//abs` → `/abs`; `~/x` → home; `/x` → project root; `./x` → cwd; `x` without a slash
 * → that name at any depth under cwd. A trailing `/` means the directory; any pattern also
 * covers everything beneath what it matches (denying `secrets` denies `secrets/a.txt`).
 */
export function compilePathPattern(spec: string, roots: PathRoots): (absPath: string) => boolean {
  const abs = absolutePattern(spec, roots);
  const base = abs.endsWith('/') ? `${abs}**` : abs;
  const isMatch = picomatch([base, `${base}/**`], { dot: true });
  return (p) => isMatch(p);
}

/**
 * The deepest directory every path a specifier matches lies under (its glob-free prefix), used
 * to index path rules. Undefined when the pattern starts with a glob.
 */
export function literalBaseOf(spec: string, roots: PathRoots): string | undefined {
  const abs = absolutePattern(spec, roots);
  const parts = abs.split('/');
  const literal: string[] = [];
  for (const part of parts) {
    if (/[*?[\]{}()!+@]/.test(part)) break;
    literal.push(part);
  }
  // The full literal path is itself a key (the rule may name a file or a directory).
  const base = posix.normalize(literal.join('/') || '/');
  if (!base.startsWith('/')) return undefined;
  return base.length > 1 && base.endsWith('/') ? base.slice(0, -1) : base;
}

function absolutePattern(spec: string, roots: PathRoots): string {
  if (spec.startsWith('//')) return posix.normalize(spec.slice(1));
  if (spec === '~') return posix.normalize(roots.home);
  if (spec.startsWith('~/')) return posix.join(roots.home, spec.slice(2)) + (spec.endsWith('/') ? '/' : '');
  if (spec.startsWith('/')) return posix.join(roots.projectRoot, spec) + (spec.endsWith('/') ? '/' : '');
  const anchored = spec.startsWith('./');
  const rel = anchored ? spec.slice(2) : spec;
  const hasSlash = rel.replace(/\/$/, '').includes('/');
  const trail = rel.endsWith('/') ? '/' : '';
  if (anchored || hasSlash) return posix.join(roots.cwd, rel) + trail;
  return `${posix.join(roots.cwd, '**', rel)}${trail}`;
}

/**
 * The absolute path a read/edit tool call targets: `file_path`, `path`, `notebook_path` or
 * `directory`, `~` expanded, resolved against cwd, `..` collapsed (lexically — symlinks are the
 * file tools' concern). A call with no path targets cwd.
 */
export function targetPathOf(args: unknown, roots: PathRoots): string {
  const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  const raw = [a.file_path, a.path, a.notebook_path, a.directory].find((v) => typeof v === 'string') as
    | string
    | undefined;
  return resolvePath(raw ?? '.', roots);
}

/** Resolves a path written in a call or a shell word against the roots. */
export function resolvePath(raw: string, roots: PathRoots): string {
  // Fast path for the common plain relative name: nothing to collapse.
  if (/^[A-Za-z0-9_@+,=-][\w@+,=.-]*(\/[\w@+,=-][\w@+,=.-]*)*$/.test(raw) && !/(^|\/)\.\.?(\/|$)/.test(raw)) {
    return roots.cwd === '/' ? `/${raw}` : `${roots.cwd.replace(/\/$/, '')}/${raw}`;
  }
  if (raw === '~') return posix.normalize(roots.home);
  if (raw.startsWith('~/')) return posix.join(roots.home, raw.slice(2));
  return posix.resolve(roots.cwd, raw);
}
