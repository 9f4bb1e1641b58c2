import type { GatewayResult } from '../../gateway/index.js';
import type { EndedReview } from '../../review/index.js';
import type { StepRecord } from '../../store/index.js';
import type { ToolSpec } from '../../tools/index.js';
import type { PlanStep } from './plan.js';
import { renderSummary, type StepSummary, summariseStep } from './step-summary.js';

/** How a step ended, as a typed record: never read back out of its display text. */
export interface StepOutcome {
  readonly status: 'done' | 'failed' | 'skipped' | 'review';
  /** The step's one-line summary, as the planner and the console read it. */
  readonly summary: string;
  /** The review the step waits for (`status: 'review'`). */
  readonly reviewId?: string;
}

/** How often a task may be replanned after failures. */
export const MAX_REVISIONS = 2;

/** A step whose record says it finished is not run again. */
export function isFinished(record: StepRecord | undefined): boolean {
  return record?.status === 'done' || record?.status === 'failed' || record?.status === 'skipped';
}

/** A tool that may change something (anything not annotated read-only). */
export function hasSideEffects(tool: ToolSpec | undefined): boolean {
  return tool?.annotations.readOnly !== true;
}

/** What happens to a step before it may run: run it, or end it here with why not. */
export type StepStart =
  | { readonly run: true }
  | { readonly run: false; readonly status: 'failed' | 'skipped'; readonly error: string };

/**
 * Whether a step may run. A side-effecting step the process died in may have taken effect (its
 * key was recorded before it ran): only a tool that declares itself idempotent runs again (at
 * most once). A tool off the line's allowlist never runs.
 */
export function stepStart(
  step: PlanStep,
  record: StepRecord | undefined,
  tool: ToolSpec | undefined,
  allowlist: ReadonlySet<string>,
): StepStart {
  if (hasSideEffects(tool) && record?.status === 'running' && !tool?.annotations.idempotent)
    return {
      run: false,
      status: 'skipped',
      error: 'Interrupted while running; not repeated because the tool is not idempotent (at most once).',
    };
  if (!allowlist.has(step.tool))
    return { run: false, status: 'failed', error: `Tool ${step.tool} is not available on the deep line.` };
  return { run: true };
}

/** What the gateway's answer means for the step. */
export type GatewayStep =
  | { readonly status: 'done'; readonly summary: StepSummary; readonly output: unknown }
  | { readonly status: 'review'; readonly reviewId: string; readonly message: string }
  | { readonly status: 'failed'; readonly error: string };

export function gatewayStep(step: PlanStep, result: GatewayResult): GatewayStep {
  if (result.status === 'executed')
    return { status: 'done', summary: summariseStep(step.goal, result.output), output: result.output };
  if (result.status === 'review' && result.reviewId)
    return { status: 'review', reviewId: result.reviewId, message: result.modelContent };
  return { status: 'failed', error: `${result.status}: ${result.modelContent}` };
}

/** A finished step's line: its structured summary when it has one, else its error. */
export function stepLine(
  stepNo: number,
  step: PlanStep,
  status: 'done' | 'failed' | 'skipped',
  ended: { readonly summary?: StepSummary; readonly error?: string },
): string {
  return ended.summary
    ? renderSummary(stepNo, step.tool, ended.summary, status)
    : `#${stepNo} ${step.tool} [${status}] ${step.goal} → ${ended.error ?? ''}`;
}

/** After a failed step the planner may revise the rest of the plan, a bounded number of times. */
export function shouldRevise(
  outcome: StepOutcome,
  revisions: number | undefined,
  canRevise: boolean,
): boolean {
  return outcome.status === 'failed' && canRevise && (revisions ?? 0) < MAX_REVISIONS;
}

/** The reviewed step's record once its review ended: done with the call's result, or failed. */
export function reviewedStep(
  stepNo: number,
  step: PlanStep,
  ended: EndedReview,
): { status: 'done'; outputSummary: string } | { status: 'failed'; error: string } {
  if (ended.status !== 'executed')
    return { status: 'failed', error: `review ${ended.status}: ${ended.summary}` };
  const summary: StepSummary = { goal: step.goal, keyData: ended.summary.slice(0, 240), anomalies: [] };
  return { status: 'done', outputSummary: renderSummary(stepNo, step.tool, summary, 'done') };
}
