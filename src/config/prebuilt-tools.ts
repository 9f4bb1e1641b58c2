import { readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { bundleArtifact, packageRoot, runningFromBundle, sourcesMatch } from '../core/index.js';

interface PrebuiltEntry {
  readonly bundle: string;
  readonly sources: readonly string[];
  readonly hash: string;
}

/**
 * The URL of a tools module pre-bundled at build time (dist/bundle/prebuilt.json), when `path` is
 * one and its sources still hash to what was built; otherwise undefined and the caller compiles.
 * Only the bundled CLI uses them: the pre-built module shares its chunks (zod, src/tools), which a
 * process running the tsc output or the sources would load a second copy of.
 */
export function prebuiltToolsModule(path: string): string | undefined {
  if (!runningFromBundle()) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(bundleArtifact('prebuilt.json'), 'utf8')) as Record<
      string,
      PrebuiltEntry
    >;
    const entry = manifest[relative(packageRoot(), resolve(path)).split(sep).join('/')];
    if (!entry || !sourcesMatch(entry.sources, entry.hash)) return undefined;
    return bundleArtifact(entry.bundle).href;
  } catch {
    // no manifest or a source gone: compile as usual
    return undefined;
  }
}
