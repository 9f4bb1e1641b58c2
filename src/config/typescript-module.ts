import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { importExternal } from '../core/index.js';

/** Where compiled tools modules are cached: inside the package's node_modules, so bare imports resolve. */
const CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/twinline/modules/', import.meta.url));

interface CacheManifest {
  readonly inputs: readonly { readonly file: string; readonly mtimeMs: number; readonly size: number }[];
}

/** How a TypeScript module was loaded (for tests and diagnostics). */
export type TypeScriptLoad = 'cache' | 'compiled' | 'tsx';

/**
 * Imports a TypeScript module on plain Node. The module is bundled once with esbuild (packages stay
 * external) into a cache keyed by its path; later loads import the cached JavaScript directly as
 * long as no source file changed — a one-shot command then skips the compiler entirely. Falls back
 * to tsx when esbuild or the cache folder is unavailable.
 */
export async function importTypeScriptModule(
  path: string,
): Promise<{ module: unknown; via: TypeScriptLoad }> {
  const file = resolve(path);
  const key = createHash('sha256').update(file).digest('hex').slice(0, 24);
  const bundle = join(CACHE_DIR, `${key}.mjs`);
  const manifestFile = join(CACHE_DIR, `${key}.json`);
  if (isFresh(manifestFile)) {
    try {
      return { module: await importExternal(pathToFileURL(bundle).href), via: 'cache' };
    } catch {
      // A damaged cache entry is rebuilt below.
    }
  }
  try {
    await compile(file, bundle, manifestFile);
    return { module: await importExternal(`${pathToFileURL(bundle).href}?v=${Date.now()}`), via: 'compiled' };
  } catch {
    const { tsImport } = await importExternal<typeof import('tsx/esm/api')>('tsx/esm/api');
    return { module: await tsImport(pathToFileURL(file).href, import.meta.url), via: 'tsx' };
  }
}

function isFresh(manifestFile: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as CacheManifest;
    return manifest.inputs.every((i) => {
      const s = statSync(i.file);
      return s.mtimeMs === i.mtimeMs && s.size === i.size;
    });
  } catch {
    return false;
  }
}

async function compile(entry: string, bundle: string, manifestFile: string): Promise<void> {
  const esbuild = await importExternal<typeof import('esbuild')>('esbuild');
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text;
  if (code === undefined) throw new Error('esbuild produced no output');
  const cwd = process.cwd();
  const inputs = Object.keys(result.metafile.inputs).map((f) => {
    const abs = resolve(cwd, f);
    const s = statSync(abs);
    return { file: abs, mtimeMs: s.mtimeMs, size: s.size };
  });
  mkdirSync(CACHE_DIR, { recursive: true });
  // Write-then-rename: concurrent processes never import a half-written bundle.
  const tmp = `.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(bundle + tmp, code);
    renameSync(bundle + tmp, bundle);
    writeFileSync(manifestFile + tmp, JSON.stringify({ inputs } satisfies CacheManifest));
    renameSync(manifestFile + tmp, manifestFile);
  } finally {
    rmSync(bundle + tmp, { force: true });
    rmSync(manifestFile + tmp, { force: true });
  }
}
