import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { circles, type ImportEdge, importEdges, moduleOf } from './import-graph.js';

const SRC = new URL('../../src/', import.meta.url).pathname;
const ARCHITECTURE = new URL('../../docs/architecture.md', import.meta.url);

/**
 * The layering of docs/architecture.md ("Module map"): a module's rank is its row, top first;
 * modules named on one row share it. The table is the data, so the page and the code cannot
 * drift apart: an import from a module to one on a lower row (higher rank) fails.
 */
function moduleRanks(): Map<string, number> {
  const text = readFileSync(ARCHITECTURE, 'utf8');
  const section = text.slice(text.indexOf('## Module map'));
  const rows = section
    .slice(0, section.indexOf('\n## ', 3))
    .split('\n')
    .filter((line) => /^\|\s*`/.test(line));
  const ranks = new Map<string, number>();
  rows.forEach((row, rank) => {
    const first = row.split('|')[1] ?? '';
    for (const [, name] of first.matchAll(/`([a-z-]+)\/`/g)) {
      if (name === undefined) continue;
      if (ranks.has(name)) throw new Error(`docs/architecture.md names ${name}/ on two rows`);
      ranks.set(name, rank);
    }
  });
  return ranks;
}

const edges: ImportEdge[] = importEdges(SRC);
const ranks = moduleRanks();
/** `src/index.ts` is the package entry: above every module, imported by none. */
const ENTRY = 'index';

describe('the import graph of src/', () => {
  it('reads a graph the size of the code (the parser sees the imports)', () => {
    expect(edges.length).toBeGreaterThan(1000);
    expect(ranks.get('core')).toBe(0);
  });

  it('has no circle between files, type-only and lazy imports included', () => {
    expect(circles(edges)).toEqual([]);
  });

  it('has no circle between modules', () => {
    const between = edges
      .map((e) => ({ from: moduleOf(e.from), to: moduleOf(e.to) }))
      .filter((e) => e.from !== e.to);
    expect(circles(between)).toEqual([]);
  });

  it('names every module of src/ in the module table of docs/architecture.md', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((name) => !ranks.has(name))).toEqual([]);
  });

  it('runs only down the module table: no module imports one listed below it', () => {
    const upward = edges
      .map((e) => ({ ...e, fromModule: moduleOf(e.from), toModule: moduleOf(e.to) }))
      .filter((e) => e.fromModule !== ENTRY && e.fromModule !== e.toModule)
      .filter((e) => (ranks.get(e.toModule) ?? Infinity) > (ranks.get(e.fromModule) ?? -1))
      .map((e) => `${e.from} -> ${e.to}`);
    expect(upward).toEqual([]);
  });

  it('lets nothing import the package entry', () => {
    expect(edges.filter((e) => e.to === 'index.ts').map((e) => e.from)).toEqual([]);
  });
});

describe('circles', () => {
  it('finds a loop, a self-import and nothing in a tree', () => {
    const loop = [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: 'a' },
      { from: 'c', to: 'd' },
      { from: 'e', to: 'e' },
    ];
    expect(circles(loop)).toEqual(expect.arrayContaining([['a', 'b', 'c'], ['e']]));
    expect(circles(loop)).toHaveLength(2);
    expect(
      circles([
        { from: 'a', to: 'b' },
        { from: 'a', to: 'c' },
        { from: 'b', to: 'c' },
      ]),
    ).toEqual([]);
  });
});
