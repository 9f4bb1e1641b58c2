/**
 * Evaluation sets that are measured only, never trained on: the sealed sets (eval/sealed/,
 * written by someone who never saw this code, delivered separately) and this project's own
 * held-out sets (eval/heldout/, sealed before tuning; their hashes are in eval/heldout/README.md).
 * Only aggregate figures are ever printed for them — no text, no failing example.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** sha256 of the own held-out files when they were sealed (eval/heldout/README.md). */
const SEALED_HASHES: Record<string, string> = {
  'eval/heldout/router-requests.jsonl': '1a42c320e2e34a02d8224ba84cebd9dfe88a87c03261ef249bee00d4ca8d85f3',
  'eval/heldout/injection-texts.jsonl': '59e9138024f886264dcb9ea5b796ed162e6c2d8b3fb87c1d3c84c8483844fbb9',
};

export interface MeasuredSet<T> {
  name: string;
  path: string;
  rows: T[];
  /** false when an own held-out file no longer has the hash it was sealed with */
  intact: boolean;
}

function load<T>(name: string, rel: string): MeasuredSet<T> | undefined {
  const path = resolve(ROOT, rel);
  if (!existsSync(path)) return undefined;
  const text = readFileSync(path, 'utf8');
  const want = SEALED_HASHES[rel];
  const intact = want === undefined || createHash('sha256').update(text).digest('hex') === want;
  if (!intact)
    process.stderr.write(`warning: ${rel} differs from the file sealed in eval/heldout/README.md\n`);
  const rows = text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
  return { name, path: rel, rows, intact };
}

/** The sealed set (if delivered) and the own held-out set, for one task. */
export function measuredSets<T>(task: 'router-requests' | 'injection-texts'): MeasuredSet<T>[] {
  return [
    load<T>('sealed', `eval/sealed/${task}.jsonl`),
    load<T>('own held-out', `eval/heldout/${task}.jsonl`),
  ].filter((s): s is MeasuredSet<T> => s !== undefined);
}

export const pct = (n: number, d: number): number | null =>
  d === 0 ? null : Math.round((1000 * n) / d) / 10;

export function printTable(
  title: string,
  head: readonly string[],
  rows: ReadonlyArray<readonly unknown[]>,
): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i] ?? '—').length)));
  const line = (cells: readonly unknown[]) =>
    `| ${cells.map((c, i) => (i === 0 ? String(c ?? '—').padEnd(widths[i]!) : String(c ?? '—').padStart(widths[i]!))).join(' | ')} |`;
  process.stdout.write(
    `\n### ${title}\n\n${line(head)}\n|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|\n`,
  );
  for (const r of rows) process.stdout.write(`${line(r)}\n`);
}
