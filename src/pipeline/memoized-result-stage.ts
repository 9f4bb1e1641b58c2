import {
  type CallContext,
  freezeShared,
  isSharedFrozen,
  type PreparedCall,
  type ResultStage,
  type ResultTransform,
} from '../gateway/index.js';

/**
 * Remembers a deterministic result stage's answer for the same tool, viewer data level and output,
 * so a quick-line read served from the cache is not scanned for PII again on every request. Only
 * for stages whose transform depends on nothing else (the redaction stage: the tool's field tags,
 * the viewer's level and the output). A hit hands out one shared answer frozen at every depth, so
 * no caller can alter another's result; outputs that are not JSON data, or larger than
 * `maxOutputChars`, pass through.
 *
 * An output the read cache shares (frozen, see `freezeShared`) is looked up by identity: its
 * content can never change, so it is not serialised again to find its answer.
 */
export function memoizeResultStage(
  stage: ResultStage,
  { maxEntries = 2_000, maxOutputChars = 64 * 1024 } = {},
): ResultStage {
  const memo = new Map<string, ResultTransform>();
  // Per shared output, its answer per tool and viewer level; dropped with the output.
  const byOutput = new WeakMap<object, Map<string, ResultTransform>>();
  const rememberFor = (output: unknown, who: string, t: ResultTransform) => {
    if (!isSharedFrozen(output)) return;
    let answers = byOutput.get(output);
    if (!answers) {
      answers = new Map();
      byOutput.set(output, answers);
    }
    answers.set(who, t);
  };
  const remember = (key: string, output: unknown, who: string, t: ResultTransform): ResultTransform => {
    let json: string | undefined;
    try {
      json = JSON.stringify(t.output);
    } catch {
      return t;
    }
    if (json === undefined) return t;
    // A copy of its own, so later changes to the caller's `t` never reach the memo.
    const shared: ResultTransform = freezeShared(
      t.notes ? { output: JSON.parse(json) as unknown, notes: [...t.notes] } : { output: JSON.parse(json) },
    );
    memo.set(key, shared);
    if (memo.size > maxEntries) memo.delete(memo.keys().next().value as string);
    rememberFor(output, who, shared);
    return t;
  };
  return {
    name: stage.name,
    transform(output: unknown, call: PreparedCall, ctx: CallContext) {
      const who = `${call.tool.name}\u0000${ctx.identity.dataLevel}`;
      const known = isSharedFrozen(output) ? byOutput.get(output)?.get(who) : undefined;
      if (known) return known;
      let key: string | undefined;
      try {
        const json = JSON.stringify(output);
        // Large outputs are rare on the hot path and would make the memo's memory unbounded.
        if (json !== undefined && json.length <= maxOutputChars) key = `${who}\u0000${json}`;
      } catch {
        key = undefined;
      }
      if (key === undefined) return stage.transform(output, call, ctx);
      const hit = memo.get(key);
      if (hit) {
        rememberFor(output, who, hit);
        return hit;
      }
      const t = stage.transform(output, call, ctx);
      const k = key;
      return t instanceof Promise ? t.then((r) => remember(k, output, who, r)) : remember(k, output, who, t);
    },
  };
}
