/**
 * Appends a writer's rows to a hand-written training set (data/written/README.md):
 *   npx tsx scripts/append-written.ts router|injection --hand NAME FILE.jsonl [--dry-run]
 * FILE holds rows of the set's schema without `id` and `hand`; each gets the next free id and
 * the writer's name. A row that does not fit the schema stops the append with its file and line
 * (nothing is written); a row whose text is already in the set (case and spacing aside) is
 * skipped and counted. Prints one JSON summary line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import {
  loadWrittenInjectionTexts,
  loadWrittenRouterRequests,
  WRITTEN_INJECTION,
  WRITTEN_ROUTER,
  WRITTEN_VERSION,
  WrittenInjectionText,
  WrittenRouterRequest,
  WrittenSetError,
} from './written-sets.js';

interface SetSpec {
  file: string;
  prefix: string;
  row: z.ZodType<WrittenRouterRequest | WrittenInjectionText>;
  load: (file: string) => Array<WrittenRouterRequest | WrittenInjectionText>;
  textOf: (r: Record<string, unknown>) => unknown;
}

const SETS: Record<string, SetSpec> = {
  router: {
    file: WRITTEN_ROUTER,
    prefix: 'wr',
    row: WrittenRouterRequest,
    load: loadWrittenRouterRequests,
    textOf: (r) => r.query,
  },
  injection: {
    file: WRITTEN_INJECTION,
    prefix: 'wi',
    row: WrittenInjectionText,
    load: loadWrittenInjectionTexts,
    textOf: (r) => r.text,
  },
};

/** The key two rows share when they say the same thing (case, spacing and punctuation aside). */
export const sameTextKey = (text: string): string =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\p{P}]+/gu, '');

export interface AppendResult {
  added: number;
  duplicates: number;
  firstId: string | null;
  lastId: string | null;
  rows: number;
}

/** Appends `source`'s rows to the set `kind` (its file in data/written/, or `target`) as writer `hand`. */
export function appendWritten(
  kind: 'router' | 'injection',
  hand: string,
  source: string,
  options: { dryRun?: boolean; target?: string } = {},
): AppendResult {
  const spec = SETS[kind]!;
  const target = options.target ?? spec.file;
  const existing = spec.load(target);
  const seen = new Set(
    existing.map((r) => sameTextKey(String(spec.textOf(r as unknown as Record<string, unknown>)))),
  );
  let next = Math.max(0, ...existing.map((r) => Number(r.id.slice(2)))) + 1;
  const added: Array<WrittenRouterRequest | WrittenInjectionText> = [];
  let duplicates = 0;
  const lines = readFileSync(source, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let raw: Record<string, unknown>;
    try {
      raw = JSON.parse(line) as Record<string, unknown>;
    } catch (e) {
      throw new WrittenSetError(source, i + 1, `not JSON (${(e as Error).message})`);
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      throw new WrittenSetError(source, i + 1, 'not a JSON object');
    const { id: _id, hand: _hand, ...fields } = raw;
    const text = spec.textOf(fields);
    if (typeof text === 'string') {
      const key = sameTextKey(text);
      if (seen.has(key)) {
        duplicates++;
        return;
      }
      seen.add(key);
    }
    const id = `${spec.prefix}${String(next).padStart(4, '0')}`;
    const parsed = spec.row.safeParse({ id, hand, ...fields });
    if (!parsed.success) throw new WrittenSetError(source, i + 1, z.prettifyError(parsed.error));
    added.push(parsed.data);
    next++;
  });
  const rows = existing.length + added.length;
  if (!options.dryRun && added.length > 0) {
    const [head, ...body] = readFileSync(target, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    const header = { ...(JSON.parse(head!) as Record<string, unknown>), version: WRITTEN_VERSION, rows };
    writeFileSync(
      target,
      `${[JSON.stringify(header), ...body, ...added.map((r) => JSON.stringify(r))].join('\n')}\n`,
    );
  }
  return {
    added: added.length,
    duplicates,
    firstId: added[0]?.id ?? null,
    lastId: added.at(-1)?.id ?? null,
    rows,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [kind, ...rest] = process.argv.slice(2);
  const handAt = rest.indexOf('--hand');
  const hand = handAt >= 0 ? rest[handAt + 1] : undefined;
  const file = rest.filter((a, i) => !a.startsWith('--') && i !== handAt + 1)[0];
  if ((kind !== 'router' && kind !== 'injection') || !hand || !file) {
    process.stderr.write('usage: append-written.ts router|injection --hand NAME FILE.jsonl [--dry-run]\n');
    process.exit(2);
  }
  try {
    const result = appendWritten(kind, hand, file, { dryRun: rest.includes('--dry-run') });
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(1);
  }
}
