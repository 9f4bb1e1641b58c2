import { readFileSync } from 'node:fs';

let version: string | undefined;

/**
 * The package version, read from package.json next to dist/ or src/ (and dist/bundle/: the same
 * depth) when first asked. Not read at import: a program that bundles the library elsewhere loads
 * `core` without a package.json two folders up.
 */
export function packageVersion(): string {
  version ??= (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version;
  return version;
}
