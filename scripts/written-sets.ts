/**
 * Loads the hand-written training sets in data/written/ (data/written/README.md): a header line
 * naming the schema and its version, then one row a line. Both training scripts read them; a
 * row that does not fit its schema stops training with the file and line, never silently.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';

export const WRITTEN_DIR = resolve(import.meta.dirname, '../data/written');
export const WRITTEN_ROUTER = resolve(WRITTEN_DIR, 'router-requests.jsonl');
export const WRITTEN_INJECTION = resolve(WRITTEN_DIR, 'injection-texts.jsonl');

const Lang = z.enum(['zh', 'en', 'mixed']);

/**
 * Version 2 added `hand` to every row: who wrote it (`r2`, `r3` for the earlier rounds, a name per
 * writer since), so the trainers can hold one hand out whole (`--hand-cv`) — the nearest thing
 * to text by someone new that is not a sealed set.
 */
export const WRITTEN_VERSION = 2;

const Header = z.object({
  _schema: z.string(),
  version: z.literal(WRITTEN_VERSION),
  rows: z.number().int().nonnegative(),
  provenance: z.string().min(1),
});

export const WrittenRouterRequest = z.strictObject({
  id: z.string().regex(/^wr\d{4,}$/),
  hand: z.string().regex(/^[a-z0-9-]+$/),
  label: z.enum(['deep', 'quick', 'readonly_fallback']),
  lang: Lang,
  style: z.string().min(1),
  query: z.string().min(1),
});
export type WrittenRouterRequest = z.infer<typeof WrittenRouterRequest>;

export const WrittenInjectionText = z.strictObject({
  id: z.string().regex(/^wi\d{4,}$/),
  hand: z.string().regex(/^[a-z0-9-]+$/),
  label: z.enum(['injection', 'benign']),
  lang: Lang,
  channel: z.enum(['user_input', 'tool_output']),
  kind: z.string().min(1),
  text: z.string().min(1),
});
export type WrittenInjectionText = z.infer<typeof WrittenInjectionText>;

/** A written set that does not load: which file, which line, what is wrong. */
export class WrittenSetError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    detail: string,
  ) {
    super(`${file}:${line}: ${detail}`);
    this.name = 'WrittenSetError';
  }
}

function load<T>(file: string, schema: string, row: z.ZodType<T>): T[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const parse = (i: number) => {
    try {
      return JSON.parse(lines[i]!) as unknown;
    } catch (e) {
      throw new WrittenSetError(file, i + 1, `not JSON (${(e as Error).message})`);
    }
  };
  const head = Header.safeParse(parse(0));
  if (!head.success || head.data._schema !== schema)
    throw new WrittenSetError(
      file,
      1,
      `header must be {"_schema":"${schema}","version":${WRITTEN_VERSION},rows,provenance}`,
    );
  const out: T[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (lines[i]!.trim() === '') continue;
    const r = row.safeParse(parse(i));
    if (!r.success) throw new WrittenSetError(file, i + 1, z.prettifyError(r.error));
    out.push(r.data);
  }
  if (out.length !== head.data.rows)
    throw new WrittenSetError(file, 1, `header says ${head.data.rows} rows, the file has ${out.length}`);
  return out;
}

export const loadWrittenRouterRequests = (file = WRITTEN_ROUTER): WrittenRouterRequest[] =>
  load(file, 'twinline/written-router-requests', WrittenRouterRequest);

export const loadWrittenInjectionTexts = (file = WRITTEN_INJECTION): WrittenInjectionText[] =>
  load(file, 'twinline/written-injection-texts', WrittenInjectionText);
