import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Set to `true` by the esbuild bundle of the CLI (scripts/build-bundle.mjs); absent in tsc output. */
declare const __TWINLINE_BUNDLE__: boolean | undefined;

/**
 * Build-time artifacts beside the bundled CLI (dist/bundle/). Only the bundle uses them: they share
 * its chunks or were made from its sources; tsc output and tests run on the sources as before.
 */
export function runningFromBundle(): boolean {
  return typeof __TWINLINE_BUNDLE__ !== 'undefined';
}

/** The package root, from a file of dist/bundle/ (or of dist/core/: the same depth). */
export function packageRoot(): string {
  return fileURLToPath(new URL('../../', import.meta.url));
}

/** A file of dist/bundle/, as a URL. */
export function bundleArtifact(name: string): URL {
  return new URL(name, import.meta.url);
}

/**
 * Whether `sources` (relative to the package root) still hold exactly `contents` (what the build
 * read from them, in the same order; scripts/build-bundle.mjs writes both). Compared as text, not
 * by digest: exact, and it keeps node:crypto out of one-shot commands.
 */
export function sourcesMatch(sources: readonly string[], contents: readonly string[]): boolean {
  if (sources.length !== contents.length) return false;
  const root = packageRoot();
  return sources.every((f, i) => readFileSync(resolve(root, f), 'utf8') === contents[i]);
}
