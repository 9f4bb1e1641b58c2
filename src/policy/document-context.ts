import { PolicyConfigError } from './errors.js';

/** Maps a path inside the parsed YAML to a 1-based line, when the loader knows it. */
export type LineLocator = (path: readonly (string | number)[]) => number | undefined;

/** Tracks where the validator is, so every error names file, rule, field and line. */
export class DocumentContext {
  constructor(
    readonly file: string,
    private readonly locate: LineLocator = () => undefined,
  ) {}

  /** Throws a `PolicyConfigError` for `docPath` (absolute path in the document). */
  fail(rule: string, docPath: readonly (string | number)[], fieldFrom: number, message: string): never {
    const field = docPath.slice(fieldFrom).join('.') || '(rule)';
    const line = this.lineOf(docPath);
    throw new PolicyConfigError(
      { file: this.file, rule, field, ...(line !== undefined ? { line } : {}) },
      message,
    );
  }

  /** The nearest known line for a path: the node itself or its closest ancestor. */
  lineOf(docPath: readonly (string | number)[]): number | undefined {
    for (let n = docPath.length; n >= 0; n--) {
      const line = this.locate(docPath.slice(0, n));
      if (line !== undefined) return line;
    }
    return undefined;
  }
}

/** A rule-scoped cursor: the rule id and where its fields start in the document. */
export interface RuleCursor {
  readonly ctx: DocumentContext;
  readonly rule: string;
  /** Absolute path of the rule object in the document. */
  readonly base: readonly (string | number)[];
}

export function failAt(cur: RuleCursor, rel: readonly (string | number)[], message: string): never {
  return cur.ctx.fail(cur.rule, [...cur.base, ...rel], cur.base.length, message);
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

export function stringList(cur: RuleCursor, rel: readonly (string | number)[], v: unknown): string[] {
  if (!Array.isArray(v) || v.length === 0 || v.some((x) => typeof x !== 'string' || x.length === 0)) {
    failAt(cur, rel, 'must be a non-empty list of non-empty strings');
  }
  return v as string[];
}
