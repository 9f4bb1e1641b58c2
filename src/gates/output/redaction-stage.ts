import type { CallContext, PreparedCall, ResultStage, ResultTransform } from '../../gateway/index.js';
import { type FieldRedactionConfig, redactFields } from './field-redaction.js';
import { redactText, type TextRedactionPolicy } from './pii/redact-text.js';
import { mapStrings } from './string-values.js';

export interface RedactionStageConfig extends FieldRedactionConfig {
  /** Also mask PII found in untagged free-text strings (default true). */
  readonly freeText?: boolean;
  readonly textPolicy?: Partial<TextRedactionPolicy>;
  /** Key under which array-path aggregates are attached to an object output (default `_aggregates`). */
  readonly aggregatesKey?: string;
}

/**
 * `result.redact`: applies the manifest's `fieldTags` for the caller's data level (mask / hash /
 * aggregate / drop) and, unless disabled, masks PII in the remaining free text.
 */
export function createRedactionStage(config: RedactionStageConfig = {}): ResultStage {
  const aggregatesKey = config.aggregatesKey ?? '_aggregates';
  return {
    name: 'result.redact',
    transform(output: unknown, call: PreparedCall, ctx: CallContext): ResultTransform {
      const level = ctx.identity.dataLevel;
      const fr = redactFields(output, call.tool.fieldTags ?? {}, level, config);
      let out = fr.output;
      const notes = fr.notes.map((n) => `redact ${n.action} ${n.path} (${n.tag}) ×${n.count}`);
      if (
        Object.keys(fr.aggregates).length > 0 &&
        out !== null &&
        typeof out === 'object' &&
        !Array.isArray(out)
      ) {
        out = { ...(out as Record<string, unknown>), [aggregatesKey]: fr.aggregates };
      }
      if (config.freeText !== false) {
        let masked = 0;
        out = mapStrings(out, (s) => {
          const r = redactText(s, level, { policy: config.textPolicy });
          masked += r.redacted.length;
          return r.text;
        });
        if (masked > 0) notes.push(`redact free-text PII ×${masked}`);
      }
      return notes.length > 0 ? { output: out, notes } : { output: out };
    },
  };
}
