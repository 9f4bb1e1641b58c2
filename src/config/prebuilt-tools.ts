import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Set to `true` by the esbuild bundle of the CLI (scripts/build-bundle.mjs); absent in tsc output. */
declare const __TWINLINE_BUNDLE__: boolean | undefined;

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
  if (typeof __TWINLINE_BUNDLE__ === 'undefined') return undefined;
  try {
    const here = new URL('./prebuilt.json', import.meta.url);
    const manifest = JSON.parse(readFileSync(here, 'utf8')) as Record<string, PrebuiltEntry>;
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const entry = manifest[relative(root, resolve(path)).split(sep).join('/')];
    if (!entry) return undefined;
    // same recipe as scripts/build-bundle.mjs
    const h = createHash('sha256');
    for (const f of entry.sources)
      h.update(f)
        .update('\0')
        .update(readFileSync(resolve(root, f)))
        .update('\0');
    return h.digest('hex') === entry.hash ? new URL(entry.bundle, here).href : undefined;
  } catch {
    // no manifest or a source gone: compile as usual
    return undefined;
  }
}
