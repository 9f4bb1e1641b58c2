/**
 * Stored records as they leave (the API, the console, the CLI): identifiers, states and times
 * pass as they are; every field that can hold model, tool or user text is gated — free text
 * whole and watermarked, structured values string by string (docs/gates.md, "Gated doors").
 */
import type { EgressGate } from './egress.js';

/** A task as listed: its request is user text, its answer model text. */
export function gatedTask<T extends { request: string; goal?: string | null; answer?: string | null }>(
  gate: EgressGate,
  task: T,
): T {
  return {
    ...task,
    request: gate.value(task.request),
    ...(typeof task.goal === 'string' ? { goal: gate.value(task.goal) } : {}),
    ...(typeof task.answer === 'string' ? { answer: gate.text(task.answer) } : {}),
  };
}

/** A task's steps: goals, parameters and errors as values, summaries as text. */
export function gatedSteps<
  T extends { goal: string; params?: unknown; outputSummary?: string; error?: string },
>(gate: EgressGate, steps: readonly T[]): T[] {
  return steps.map((s) => ({
    ...s,
    goal: gate.value(s.goal),
    ...(s.params !== undefined ? { params: gate.value(s.params) } : {}),
    ...(s.outputSummary !== undefined ? { outputSummary: gate.text(s.outputSummary) } : {}),
    ...(s.error !== undefined ? { error: gate.value(s.error) } : {}),
  }));
}

/**
 * A review: the call's arguments, the reasons, the decision path, the result summary, and the
 * request it came from and the decider's note when the view carries them.
 */
export function gatedReview<
  T extends {
    args: unknown;
    reason: string;
    decisionPath: readonly unknown[];
    resultSummary?: string;
    request?: string;
    decisionNote?: string;
  },
>(gate: EgressGate, r: T): T {
  return {
    ...r,
    args: gate.value(r.args),
    reason: gate.value(r.reason),
    decisionPath: gate.value(r.decisionPath),
    ...(r.resultSummary !== undefined ? { resultSummary: gate.text(r.resultSummary) } : {}),
    ...(r.request !== undefined ? { request: gate.value(r.request) } : {}),
    ...(r.decisionNote !== undefined ? { decisionNote: gate.value(r.decisionNote) } : {}),
  };
}

/**
 * An audit record: its summary, decision path, "decided by" and logged arguments can quote tool
 * output or arguments.
 */
export function gatedAuditRecord<
  T extends { resultSummary: string; decisionPath: readonly unknown[]; decidedBy?: unknown; args?: unknown },
>(gate: EgressGate, r: T): T {
  return {
    ...r,
    resultSummary: gate.value(r.resultSummary),
    decisionPath: gate.value(r.decisionPath),
    ...(r.decidedBy !== undefined ? { decidedBy: gate.value(r.decidedBy) } : {}),
    ...(r.args !== undefined ? { args: gate.value(r.args) } : {}),
  };
}
