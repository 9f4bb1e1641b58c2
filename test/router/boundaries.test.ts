import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function importsOf(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  return [
    ...src.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => (m[1] ?? m[2])!);
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));
}

describe('module boundaries', () => {
  it('src/router imports nothing but src/core and node built-ins (it runs before any agent)', () => {
    for (const file of tsFiles('src/router')) {
      for (const spec of importsOf(file)) {
        const ok =
          spec.startsWith('node:') ||
          spec === '../core/index.js' ||
          (spec.startsWith('./') && !spec.includes('..'));
        expect(ok, `${file} imports ${spec}`).toBe(true);
      }
    }
  });

  it('the route command loads only the router (start-up time), the config only when there is one', () => {
    const run = readFileSync('src/cli/commands/route-run.ts', 'utf8');
    expect(/^import[^;]*from '\.\.\/\.\.\/config\/index\.js'/m.test(run), 'config imported eagerly').toBe(
      false,
    );
    for (const file of ['src/cli/commands/route.ts', 'src/cli/commands/route-run.ts']) {
      for (const spec of importsOf(file)) {
        const ok =
          [
            'commander',
            './index.js',
            // the type of a command module (erased at build)
            './command-module.js',
            './route.js',
            './route-run.js',
            '../../router/index.js',
            '../../core/index.js',
            // writes the result on fd 1 (node:fs only)
            '../write-out.js',
            // help texts (no imports)
            './option-help.js',
            // only with a config of the user's (the built-in sample's router is the default)
            '../../config/index.js',
          ].includes(spec) || spec.startsWith('node:');
        expect(ok, `${file} imports ${spec}`).toBe(true);
      }
    }
  });

  it('src/context imports only core, store, zod and (lazily) nats', () => {
    for (const file of tsFiles('src/context')) {
      const src = readFileSync(file, 'utf8');
      for (const spec of importsOf(file)) {
        const ok =
          spec.startsWith('node:') ||
          spec.startsWith('./') ||
          [
            '../core/index.js',
            '../../store/index.js',
            '../errors.js',
            '../event.js',
            'zod',
            'kysely',
            'nats',
          ].includes(spec);
        expect(ok, `${file} imports ${spec}`).toBe(true);
      }
      // nats may only be loaded on demand (a type-only import is erased)
      expect(/^import\s+(?!type\b)[^;]*from\s+'nats'/m.test(src), `${file} imports nats eagerly`).toBe(false);
    }
  });
});
