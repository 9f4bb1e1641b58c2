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
  /** Most summaries a prompt gets (default 8). Failures and anomalies count against it first. */
  readonly cap?: number;
}

const DEFAULT_CAP = 8;

/**
 * Picks the summaries a planner prompt gets (seed 004 §4.2: only the relevant ones). Failures and
 * steps with anomalies always come first — the model must not report success over them; then the
 * steps whose goal or tool shares terms with the task's goal, most overlap first, later steps
 * breaking ties; the cap bounds the prompt whatever the task length. Returns them in step order
 * plus how many were left out (their raw outputs and summaries stay in the store). Pure.
 */
export function selectRelevantSummaries(
  goal: string,
  entries: readonly SummaryEntry[],
  options: RelevanceOptions = {},
): { selected: SummaryEntry[]; omitted: number } {
  const cap = Math.max(1, options.cap ?? DEFAULT_CAP);
  const goalTerms = termsOf(goal);
  const scored = entries.map((e) => {
    const trouble = e.status !== 'done' || e.line.includes('| anomalies:');
    const terms = termsOf(`${e.goal} ${e.tool.replace(/_/g, ' ')}`);
    let overlap = 0;
    for (const t of terms) if (goalTerms.has(t)) overlap++;
    return { e, score: (trouble ? 1000 : 0) + overlap };
  });
  const relevant = scored.filter((s) => s.score > 0);
  // With nothing overlapping, the latest steps are the best guess at what the goal needs.
  const pool = relevant.length > 0 ? relevant : scored;
  const chosen = [...pool]
    .sort((a, b) => b.score - a.score || b.e.stepNo - a.e.stepNo)
    .slice(0, cap)
    .map((s) => s.e)
    .sort((a, b) => a.stepNo - b.stepNo);
  return { selected: chosen, omitted: entries.length - chosen.length };
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
