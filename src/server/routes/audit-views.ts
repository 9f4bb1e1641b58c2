import { DATA_LEVELS, type DataLevel, dataLevelRank, type Identity } from '../../core/index.js';
import {
  auditArgumentRedactor,
  type EgressGate,
  gatedAuditRecord,
  type TaggedTool,
} from '../../gates/index.js';
import type { AuditRecord } from '../../store/index.js';

/** Audit records as a viewer is sent them (the API, the console, exports). */
export class AuditViews {
  readonly #tools: { get(name: string): TaggedTool | undefined };
  readonly #redactors = new Map<DataLevel, ReturnType<typeof auditArgumentRedactor>>();

  constructor(tools: { get(name: string): TaggedTool | undefined }) {
    this.#tools = tools;
  }

  /**
   * `rec` for `viewer`: logged arguments redacted again for the lower of the viewer's level and
   * the level they were logged at (a viewer below the audit's level sees less, never more), then
   * every text field through the viewer's egress gate.
   */
  view(gate: EgressGate, rec: AuditRecord, viewer: Identity): AuditRecord {
    let shown = rec;
    if (rec.args !== undefined) {
      const logged = (DATA_LEVELS as readonly string[]).includes(rec.argsLevel ?? '')
        ? (rec.argsLevel as DataLevel)
        : 'L1';
      const level = dataLevelRank(viewer.dataLevel) < dataLevelRank(logged) ? viewer.dataLevel : logged;
      if (level !== logged) {
        const tool = this.#tools.get(rec.tool) ?? { name: rec.tool };
        shown = { ...rec, args: this.#redactor(level)(tool, rec.args).args, argsLevel: level };
      }
    }
    return gatedAuditRecord(gate, shown);
  }

  #redactor(level: DataLevel) {
    let r = this.#redactors.get(level);
    if (!r) {
      r = auditArgumentRedactor({ level, cacheSize: 200 });
      this.#redactors.set(level, r);
    }
    return r;
  }
}

const CSV_COLUMNS = [
  'time',
  'id',
  'user',
  'agent',
  'domain',
  'tool',
  'status',
  'decided_stage',
  'decided_rule',
  'decided_reason',
  'duration_ms',
  'args',
  'args_level',
  'args_hash',
  'result_summary',
  'review_id',
  'task_id',
  'session_id',
] as const;

/**
 * One CSV field: quoted when it holds a separator, quote or line break; a leading `= + - @` (a
 * formula to a spreadsheet) is defused with an apostrophe, since the values are tool and user text.
 */
function csvField(value: unknown): string {
  let text =
    value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Gated records as CSV (one header row, durations rounded to microseconds). */
export function auditCsv(records: readonly AuditRecord[]): string {
  const rows = records.map((r) =>
    [
      r.time,
      r.id,
      r.user,
      r.agent,
      r.domain,
      r.tool,
      r.status,
      r.decidedBy?.stage,
      r.decidedBy?.ruleId,
      r.decidedBy?.reason,
      Math.round(r.durationMs * 1000) / 1000,
      r.args,
      r.argsLevel,
      r.argsHash,
      r.resultSummary,
      r.reviewId,
      r.taskId,
      r.sessionId,
    ]
      .map(csvField)
      .join(','),
  );
  return `${[CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}
