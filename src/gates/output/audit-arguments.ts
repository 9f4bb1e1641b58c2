import { canonicalJson, type DataLevel } from '../../core/index.js';
import { type FieldRedactionConfig, redactFields } from './field-redaction.js';
import { redactText, type TextRedactionPolicy } from './pii/redact-text.js';
import { mapStrings } from './string-values.js';

/** What of a tool the audit's redaction reads: its tags. */
export interface TaggedTool {
  readonly name: string;
  readonly fieldTags?: Readonly<Record<string, string>>;
  readonly argumentTags?: Readonly<Record<string, string>>;
}

export interface AuditArgumentOptions extends FieldRedactionConfig {
  /** The data level the decision log's arguments are redacted for. */
  readonly level: DataLevel;
  readonly textPolicy?: Partial<TextRedactionPolicy>;
  /** Distinct (tool, arguments) pairs remembered, so a repeated call is redacted once (default 2 000). */
  readonly cacheSize?: number;
}

/**
 * The arguments as the audit's decision log keeps them (docs/operations.md, "Decision log"): the
 * tool's argument tags (and its field tags where their paths occur in the arguments) mask, hash,
 * aggregate or drop fields for the audit's data level, then PII that level may not see is masked
 * in the remaining free text. Pure; results are remembered per (tool, canonical arguments).
 */
export function auditArgumentRedactor(
  options: AuditArgumentOptions,
): (tool: TaggedTool, args: unknown) => { args: unknown; level: DataLevel } {
  const { level } = options;
  const max = options.cacheSize ?? 2000;
  const cache = new Map<string, unknown>();
  const tagsOf = new WeakMap<TaggedTool, Readonly<Record<string, string>>>();
  return (tool, args) => {
    const key = `${tool.name}\0${canonicalJson(args ?? null)}`;
    if (cache.has(key)) return { args: cache.get(key), level };
    let tags = tagsOf.get(tool);
    if (!tags) {
      tags = { ...tool.fieldTags, ...tool.argumentTags };
      tagsOf.set(tool, tags);
    }
    const fields = Object.keys(tags).length > 0 ? redactFields(args, tags, level, options).output : args;
    const out = mapStrings(fields, (s) => redactText(s, level, { policy: options.textPolicy ?? {} }).text);
    if (cache.size >= max) cache.delete(cache.keys().next().value as string);
    cache.set(key, out);
    return { args: out, level };
  };
}
