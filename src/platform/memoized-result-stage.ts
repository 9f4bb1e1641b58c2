import type { CallContext, PreparedCall, ResultStage, ResultTransform } from '../gateway/index.js';

/**
 * Remembers a deterministic result stage's answer for the same tool, viewer data level and output,
 * so a quick-line read served from the cache is not scanned for PII again on every request. Only
 * for stages whose transform depends on nothing else (the redaction stage: the tool's field tags,
 * the viewer's level and the output). Each hit returns a fresh copy, so no caller can alter
 * another's result; outputs that are not JSON data, or larger than `maxOutputChars`, pass through.
 */
export function memoizeResultStage(
  stage: ResultStage,
  { maxEntries = 2_000, maxOutputChars = 64 * 1024 } = {},
): ResultStage {
  const memo = new Map<string, { output: string; notes?: readonly string[] }>();
  const remember = (key: string, t: ResultTransform): ResultTransform => {
    let output: string | undefined;
    try {
      output = JSON.stringify(t.output);
    } catch {
      return t;
    }
    if (output === undefined) return t;
    memo.set(key, t.notes ? { output, notes: t.notes } : { output });
    if (memo.size > maxEntries) memo.delete(memo.keys().next().value as string);
    return t;
  };
  return {
    name: stage.name,
    transform(output: unknown, call: PreparedCall, ctx: CallContext) {
      let key: string | undefined;
      try {
        const json = JSON.stringify(output);
        // Large outputs are rare on the hot path and would make the memo's memory unbounded.
        if (json !== undefined && json.length <= maxOutputChars)
          key = `${call.tool.name}\u0000${ctx.identity.dataLevel}\u0000${json}`;
      } catch {
        key = undefined;
      }
      if (key === undefined) return stage.transform(output, call, ctx);
      const hit = memo.get(key);
      if (hit) {
        const copy = JSON.parse(hit.output) as unknown;
        return hit.notes ? { output: copy, notes: [...hit.notes] } : { output: copy };
      }
      const t = stage.transform(output, call, ctx);
      const k = key;
      return t instanceof Promise ? t.then((r) => remember(k, r)) : remember(k, t);
    },
  };
}
