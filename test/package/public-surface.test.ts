import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { declaredExports, type ExportKind } from './public-surface.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
  exports: Record<string, string | { types: string; default: string }>;
};

interface Documented {
  readonly kind: string;
  readonly exists: ExportKind;
}

/** docs/api.md: one `## \`twinline…\`` section per entry point, a table row per exported name. */
function documentedSurface(): Map<string, Map<string, Documented>> {
  const entries = new Map<string, Map<string, Documented>>();
  let current: Map<string, Documented> | undefined;
  for (const line of readFileSync(`${ROOT}docs/api.md`, 'utf8').split('\n')) {
    const heading = /^## `(twinline(?:\/[a-z-]+)?)`$/.exec(line);
    if (heading?.[1]) {
      current = new Map();
      entries.set(heading[1], current);
      continue;
    }
    if (line.startsWith('## ')) current = undefined;
    const row = /^\| `([A-Za-z_$][\w$]*)` \| (function|class|constant|type) \|/.exec(line);
    if (!row?.[1] || !row[2] || !current) continue;
    if (current.has(row[1])) throw new Error(`docs/api.md lists ${row[1]} twice`);
    current.set(row[1], { kind: row[2], exists: row[2] === 'type' ? 'type' : 'value' });
  }
  return entries;
}

const documented = documentedSurface();
/** `twinline/sdk` → `./sdk` in package.json `exports`. */
const subpath = (entry: string) => `.${entry.slice('twinline'.length)}`;

describe('the public surface (docs/api.md)', () => {
  it('documents every entry point package.json exports, and exports every documented one', () => {
    const code = Object.keys(pkg.exports).filter((key) => key !== './package.json');
    expect([...documented.keys()].map(subpath).sort()).toEqual(code.sort());
    expect(documented.get('twinline')?.size).toBeGreaterThan(10);
  });

  for (const [entry, names] of documented) {
    describe(entry, () => {
      const target = pkg.exports[subpath(entry)];
      if (target === undefined || typeof target === 'string') throw new Error(`${entry}: no types/default`);
      const dts = `${ROOT}${target.types}`;
      const js = `${ROOT}${target.default}`;

      it('is built (npm run build)', () => {
        expect(existsSync(dts), dts).toBe(true);
        expect(existsSync(js), js).toBe(true);
      });

      it('declares exactly the documented names, values and types as documented', () => {
        const declared = Object.fromEntries([...declaredExports(dts)].sort());
        const expected = Object.fromEntries([...names].map(([name, d]) => [name, d.exists]).sort());
        expect(declared).toEqual(expected);
      });

      it('exports exactly the documented values at run time, each of its documented kind', async () => {
        const loaded = (await import(js)) as Record<string, unknown>;
        const values = [...names].filter(([, d]) => d.exists === 'value');
        expect(Object.keys(loaded).sort()).toEqual(values.map(([name]) => name).sort());
        for (const [name, d] of values) {
          const value = loaded[name];
          if (d.kind === 'constant') expect(typeof value, name).not.toBe('function');
          else expect(typeof value, name).toBe('function');
          if (d.kind === 'class') expect(Function.prototype.toString.call(value), name).toMatch(/^class\b/);
          if (d.kind === 'function')
            expect(Function.prototype.toString.call(value), name).not.toMatch(/^class\b/);
        }
      });
    });
  }
});
