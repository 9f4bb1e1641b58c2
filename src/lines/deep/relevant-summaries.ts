import { retrievalTerms } from '../readonly/retrieval-terms.js';

/** One finished step as the planner may see it: its line in the task's summary log. */
export interface SummaryEntry {
  readonly stepNo: number;
  readonly tool: string;
  readonly goal: string;
  readonly status: string;
  /** The rendered structured summary (goal → key data | anomalies). */
  readonly line: string;
}

export interface RelevanceOptions {
  /** Most summaries a prompt gets (default 10). Failures and anomalies count against it first. */
  readonly cap?: number;
}

const DEFAULT_CAP = 10;

/**
 * Picks the summaries a planner prompt gets (docs/lines.md, "Context bus: summaries only": only the relevant ones). Failures and
 * steps with anomalies come first (up to half the cap) — the model must not report success over
 * them; the rest goes to steps whose goal or tool shares terms with the task's goal, taken round
 * robin across tools (most overlap, then latest, first within a tool) so one chatty tool cannot
 * crowd out the others. The cap bounds the prompt whatever the task length. Returns them in step
 * order plus how many were left out (their raw outputs and summaries stay in the store). Pure.
 */
export function selectRelevantSummaries(
  goal: string,
  entries: readonly SummaryEntry[],
  options: RelevanceOptions = {},
): { selected: SummaryEntry[]; omitted: number } {
  const cap = Math.max(1, options.cap ?? DEFAULT_CAP);
  const goalTerms = termsOf(goal);
  const scored = entries.map((e) => {
    const terms = termsOf(`${e.goal} ${e.tool.replace(/_/g, ' ')}`);
    let overlap = 0;
    for (const t of terms) if (goalTerms.has(t)) overlap++;
    return { e, overlap, trouble: e.status !== 'done' || e.line.includes('| anomalies:') };
  });
  const byRank = (a: (typeof scored)[number], b: (typeof scored)[number]) =>
    b.overlap - a.overlap || b.e.stepNo - a.e.stepNo;
  const chosen = new Set<SummaryEntry>();
  for (const s of scored.filter((x) => x.trouble).sort(byRank)) {
    if (chosen.size >= Math.ceil(cap / 2)) break;
    chosen.add(s.e);
  }
  // With nothing overlapping, the latest steps are the best guess at what the goal needs.
  const rest = scored.filter((x) => !chosen.has(x.e));
  const relevant = rest.some((x) => x.overlap > 0) ? rest.filter((x) => x.overlap > 0) : rest;
  const perTool = new Map<string, (typeof scored)[number][]>();
  for (const s of [...relevant].sort(byRank)) perTool.set(s.e.tool, [...(perTool.get(s.e.tool) ?? []), s]);
  const queues = [...perTool.values()];
  while (chosen.size < cap && queues.some((q) => q.length > 0)) {
    for (const q of queues) {
      const next = q.shift();
      if (next && chosen.size < cap) chosen.add(next.e);
    }
  }
  const selected = [...chosen].sort((a, b) => a.stepNo - b.stepNo);
  return { selected, omitted: entries.length - selected.length };
}

/** The summary lines for a prompt: the selected lines and a note of what was left in the store. */
export function renderRelevantSummaries(
  goal: string,
  entries: readonly SummaryEntry[],
  cap?: number,
): string[] {
  const { selected, omitted } = selectRelevantSummaries(goal, entries, cap !== undefined ? { cap } : {});
  const lines = selected.map((s) => s.line);
  if (omitted > 0)
    lines.push(
      `(${omitted} other steps left out as less relevant; their summaries and raw outputs are in the task store)`,
    );
  return lines;
}

function termsOf(text: string): Set<string> {
  return new Set(retrievalTerms(text, 1000).split(' ').filter(Boolean));
}
