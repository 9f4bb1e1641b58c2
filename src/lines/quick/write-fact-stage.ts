import type { CallContext, PreparedCall, ResultStage, ResultTransform } from '../../gateway/index.js';

const ID_FIELDS = ['id', 'eventId', 'ticketId', 'taskId', 'key', 'project'];

/**
 * Result stage `result.fact` for the quick line (docs/lines.md, "Quick line and its read cache"): after a write, the model's context
 * keeps only a short fact ("calendar_reschedule done: id 42"), not the payload; the user can read the
 * record from the tool's side.
 */
export function createWriteFactStage(): ResultStage {
  return {
    name: 'result.fact',
    transform(output: unknown, call: PreparedCall, ctx: CallContext): ResultTransform {
      if (ctx.domain !== 'quick' || call.tool.annotations.readOnly) return { output };
      return { output: { done: true, fact: writeFact(call.tool.name, output) } };
    },
  };
}

/** The short fact a write leaves behind: the tool and up to three ids found in `record`. */
export function writeFact(tool: string, record: unknown): string {
  const ids: string[] = [];
  const visit = (o: unknown, depth: number) => {
    if (!o || typeof o !== 'object' || depth > 2) return;
    for (const [k, v] of Object.entries(o as Record<string, unknown>)) {
      if (ID_FIELDS.includes(k) && (typeof v === 'string' || typeof v === 'number')) ids.push(`${k} ${v}`);
      else if (v && typeof v === 'object' && !Array.isArray(v)) visit(v, depth + 1);
    }
  };
  visit(record, 0);
  return ids.length ? `${tool} done: ${ids.slice(0, 3).join(', ')}` : `${tool} done`;
}
