import { readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleArtifact, packageRoot, runningFromBundle, sourcesMatch } from '../core/index.js';

interface PrebuiltEntry {
  readonly bundle: string;
  /** The module compiled file by file to plain JavaScript, relative to dist/ (any run may import it). */
  readonly compiled?: string;
  readonly sources: readonly string[];
  /** The sources' text when built, in the same order. */
  readonly contents: readonly string[];
}

/** Loaders of tools modules bundled into the code-cached one-shot CLI, by path from the package root. */
const linked = new Map<string, () => Promise<unknown>>();

/** `path` relative to the package root, with forward slashes (the key of prebuilt.json). */
function fromRoot(path: string): string {
  return relative(packageRoot(), resolve(path)).split(sep).join('/');
}

/** The build's entry for a pre-built tools module, when its sources are still what was built. */
function currentEntry(path: string): PrebuiltEntry | undefined {
  if (!runningFromBundle()) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(bundleArtifact('prebuilt.json'), 'utf8')) as Record<
      string,
      PrebuiltEntry
    >;
    const entry = manifest[fromRoot(path)];
    return entry && sourcesMatch(entry.sources, entry.contents) ? entry : undefined;
  } catch {
    // no manifest or a source gone: compile as usual
    return undefined;
  }
}

/**
 * The URL of a tools module pre-bundled at build time (dist/bundle/prebuilt.json), when `path` is
 * one and its sources are still what was built; otherwise undefined and the caller compiles.
 * Only the bundled CLI uses them: the pre-built module shares its chunks (zod, src/tools), which a
 * process running the tsc output or the sources would load a second copy of.
 */
export function prebuiltToolsModule(path: string): string | undefined {
  const entry = currentEntry(path);
  return entry ? bundleArtifact(entry.bundle).href : undefined;
}

/**
 * The URL of a TypeScript tools module shipped compiled to plain JavaScript (dist/examples/…, file
 * by file, importing packages from node_modules like any other module), when `path` is one and its
 * sources are still what was compiled. Unlike the pre-bundled module it carries no copy of zod or
 * src/, so the tsc output and the library (an installed package without esbuild or tsx) load it.
 */
export function compiledToolsModule(path: string): string | undefined {
  try {
    // dist/config/ and dist/bundle/ are both one level below dist/
    const manifestUrl = new URL('../bundle/prebuilt.json', import.meta.url);
    const manifest = JSON.parse(readFileSync(manifestUrl, 'utf8')) as Record<string, PrebuiltEntry>;
    const entry = manifest[fromRoot(path)];
    if (!entry?.compiled || !sourcesMatch(entry.sources, entry.contents)) return undefined;
    return pathToFileURL(resolve(packageRoot(), 'dist', entry.compiled)).href;
  } catch {
    // no build beside this file (sources run by tsx or vitest) or a source gone
    return undefined;
  }
}

/**
 * Registers a tools module compiled into the running bundle itself (the one-shot CLI links the
 * office tools so they share its zod and src/tools, as the pre-built module shares the ESM chunks).
 * `path` is relative to the package root, as in prebuilt.json; `load` evaluates the module.
 */
export function linkToolsModule(path: string, load: () => Promise<unknown>): void {
  linked.set(path, load);
}

/** The linked tools module for `path`, when its sources are still what was built. */
export function linkedToolsModule(path: string): Promise<unknown> | undefined {
  if (linked.size === 0) return undefined;
  const load = linked.get(fromRoot(path));
  return load && currentEntry(path) ? load() : undefined;
}
