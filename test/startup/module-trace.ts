import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root. */
export const ROOT = resolve(import.meta.dirname, '../..');

/**
 * A module-load tracer for a child Node process: `--import <register>` with `env` makes every
 * module the child loads append its URL to `file` (scripts/trace-imports.mjs, the same tracer a
 * person uses by hand). Loader hooks run beside the program, so the traced program is unchanged.
 */
export function moduleTracer(): { register: string; file: string; env: Record<string, string> } {
  const file = join(mkdtempSync(join(tmpdir(), 'twinline-modules-')), 'loaded.txt');
  writeFileSync(file, '');
  return { register: join(ROOT, 'scripts/trace-imports.mjs'), file, env: { TWINLINE_TRACE_IMPORTS: file } };
}

/** dist/bundle/meta.json: bundle output file → the source files inlined in it. */
function bundleInputs(): Record<string, string[]> {
  const meta = join(ROOT, 'dist/bundle/meta.json');
  return existsSync(meta) ? (JSON.parse(readFileSync(meta, 'utf8')) as Record<string, string[]>) : {};
}

/**
 * The source modules behind loaded URLs, relative to the package root (`src/…`,
 * `node_modules/<pkg>/…`, `node:fs`). A chunk of the CLI bundle stands for every source inlined in
 * it, so a module is seen whether it was loaded on its own or bundled; a one-shot bundle stands for
 * the sources it runs on loading, and reports the others as they run (`bundle-module:`).
 */
export function sourceModules(urls: readonly string[]): Set<string> {
  const inputs = bundleInputs();
  const bundleDir = join(ROOT, 'dist/bundle');
  const out = new Set<string>();
  for (const url of urls) {
    if (url.startsWith('bundle-module:')) {
      // a module of a one-shot bundle that ran (scripts/trace-imports.mjs)
      out.add(url.slice('bundle-module:'.length));
      continue;
    }
    if (!url.startsWith('file:')) {
      out.add(url);
      continue;
    }
    const path = fileURLToPath(url.split('?')[0] as string);
    const inBundle = relative(bundleDir, path);
    const inlined = inBundle.startsWith('..') ? undefined : inputs[inBundle];
    if (inlined) for (const f of inlined) out.add(f);
    else out.add(relative(ROOT, path));
  }
  return out;
}

/** The line scripts/trace-imports.mjs writes when the program first writes to stdout. */
const FIRST_OUTPUT_MARK = 'output:first-write';

/** The traced URLs of a finished child. */
export function loadedUrls(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l && l !== FIRST_OUTPUT_MARK);
}

/** The traced URLs loaded before the child first wrote to stdout (all of them if it never did). */
export function loadedBeforeFirstOutput(file: string): string[] {
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const mark = lines.indexOf(FIRST_OUTPUT_MARK);
  return mark < 0 ? lines : lines.slice(0, mark);
}

/** npm package names among source modules. */
export function packagesIn(modules: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const m of modules) {
    // the innermost node_modules folder names the package that owns the file
    const hit = [...m.matchAll(/(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/g)].at(-1);
    if (hit) out.add(hit[1] as string);
  }
  return out;
}
