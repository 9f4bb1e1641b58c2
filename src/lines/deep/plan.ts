import { z } from 'zod';
import { TwinlineError } from '../../core/index.js';

/** One step of a deep-line plan, as the planner proposes it. Nothing in it is trusted. */
export const planStepSchema = z.strictObject({
  goal: z.string().min(1).max(500),
  tool: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
  args: z.record(z.string(), z.unknown()).default({}),
  expected: z.string().max(500).optional(),
});

/**
 * A plan: its steps and the high-risk capabilities (tool names) it declares up front. The
 * declaration is fixed when the plan is accepted — before any tool output has been read — so text
 * that arrives later cannot widen it (the intent stage enforces that).
 */
export const planSchema = z.strictObject({
  goal: z.string().min(1).max(1000),
  capabilities: z.array(z.string()).max(50).default([]),
  steps: z.array(planStepSchema).min(1).max(60),
});

export type Plan = z.output<typeof planSchema>;
export type PlanStep = z.output<typeof planStepSchema>;

/** The planner's answer could not be read as a plan. */
export class PlanFormatError extends TwinlineError {
  constructor(message: string, where: string) {
    super('deep.bad_plan', message, { where });
  }
}

/** Reads a plan from the planner's text: bare JSON or the first fenced JSON block. */
export function parsePlan(text: string): Plan {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  const body = (fenced?.[1] ?? text).trim();
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (err) {
    throw new PlanFormatError(`the plan is not JSON (${(err as Error).message})`, 'plan');
  }
  const parsed = planSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PlanFormatError(issue?.message ?? 'invalid plan', `plan.${issue?.path.join('.') ?? ''}`);
  }
  return parsed.data;
}

/** A revision of the remaining steps, as the planner proposes it after a failed step. */
export const revisionSchema = z.strictObject({ steps: z.array(planStepSchema).min(1).max(60) });

/** The replacement steps in a planner's answer, or undefined when it is not a revision. */
export function parseRevision(text: string): PlanStep[] | undefined {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  try {
    const parsed = revisionSchema.safeParse(JSON.parse((fenced?.[1] ?? text).trim()));
    return parsed.success ? parsed.data.steps : undefined;
  } catch {
    return undefined;
  }
}
