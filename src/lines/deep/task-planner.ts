import { modelFailureSentence, ProviderError } from '../../agent/index.js';
import type { Identity } from '../../core/index.js';
import { declaredCapabilities } from '../../policy/index.js';
import type { ToolSpec } from '../../tools/index.js';
import type { LineEvent } from '../events.js';
import { type Plan, PlanFormatError, parsePlan } from './plan.js';
import type { TaskRun } from './task-run.js';
import { storedTaskState, type TaskState } from './task-state.js';

/** What planning needs: the line's tools and allowlist, and the degraded path. */
export interface TaskPlannerDeps {
  readonly tools: { get(name: string): ToolSpec | undefined };
  readonly allowlist: ReadonlySet<string>;
  /**
   * The degraded path, for a plan the model service could not give (down, timing out, errors):
   * a retrieval answer and a ticket. Without it such a task just fails.
   */
  readonly degrade?: (
    identity: Identity,
    request: string,
    failure: { sessionId: string; reason: string; detail?: string },
  ) => Promise<{ text: string; ticketId?: string }>;
}

/** What planning gave: the state with the plan, or the end of the task when no plan could be had. */
export type Planning =
  | { readonly planned: true; readonly state: TaskState }
  | {
      readonly planned: false;
      readonly state: TaskState;
      readonly outcome: 'degraded' | 'failed';
      readonly text: string;
      readonly ticketId?: string;
    };

/**
 * Plans a task (docs/lines.md, "Deep line"): the planner's plan, its capabilities cut to what the
 * request asks for, every step written pending before any runs.
 */
export class TaskPlanner {
  constructor(private readonly deps: TaskPlannerDeps) {}

  async plan(run: TaskRun, state: TaskState): Promise<Planning> {
    const { tasks, task, identity, planner, emit, signal } = run;
    await tasks.updateTask(task.id, { status: 'planning' });
    let plan: Plan;
    try {
      const answer = await planner.plan(task.request, this.#declarations(), {
        consumedTurns: state.plannerTurns,
        signal,
      });
      state = { ...state, plannerTurns: state.plannerTurns + 1 };
      plan = parsePlan(answer);
    } catch (err) {
      if (err instanceof ProviderError && this.deps.degrade) {
        const answer = await this.deps.degrade(identity, task.request, {
          sessionId: state.sessionId,
          reason: modelFailureSentence(err.failure),
          detail: `${err.message}${err.detail ? `: ${err.detail}` : ''}`,
        });
        return {
          planned: false,
          state,
          outcome: 'degraded',
          text: answer.text,
          ...(answer.ticketId ? { ticketId: answer.ticketId } : {}),
        };
      }
      return { planned: false, state, outcome: 'failed', text: planningFailure(err) };
    }
    // The declaration is fixed now, before any tool output is read, and only with what the
    // user's own words ask for: a model cannot grant itself a capability (docs/architecture.md, "Capabilities from the user's words").
    plan = { ...plan, capabilities: grantedCapabilities(plan.capabilities, task.request, this.deps.tools) };
    state = { ...state, plan };
    // Steps are written before any runs, so the console shows the whole plan from the start.
    for (const [i, step] of plan.steps.entries()) {
      await tasks.upsertStep({
        taskId: task.id,
        stepNo: i + 1,
        status: 'pending',
        goal: step.goal,
        tool: step.tool,
        params: step.args,
      });
    }
    await tasks.updateTask(task.id, { status: 'running', plan: storedTaskState(state), currentStep: 0 });
    emit(planEvent(task.id, plan));
    return { planned: true, state };
  }

  #declarations(): ToolSpec[] {
    return [...this.deps.allowlist]
      .map((n) => this.deps.tools.get(n))
      .filter((t): t is ToolSpec => t !== undefined);
  }
}

/** Why a task could not be planned, as its answer says it. */
function planningFailure(err: unknown): string {
  if (err instanceof PlanFormatError) return `The planner's plan was unusable: ${err.message}`;
  if (err instanceof ProviderError)
    return `The task could not be planned: ${modelFailureSentence(err.failure)}.`;
  return (err as Error).message;
}

/** The plan as the console and the events show it. */
export function planEvent(taskId: string, plan: Plan): LineEvent {
  return {
    type: 'plan',
    taskId,
    capabilities: plan.capabilities,
    steps: plan.steps.map((s, i) => ({ stepNo: i + 1, goal: s.goal, tool: s.tool })),
  };
}

/**
 * The capabilities a plan may keep: a declared tool with `intentKeywords` stays only when the
 * request says one of its phrases as whole words (`declaredCapabilities`); unknown tools are dropped.
 */
export function grantedCapabilities(
  declared: readonly string[],
  request: string,
  tools: { get(name: string): ToolSpec | undefined },
): string[] {
  const known = declared.map((name) => tools.get(name)).filter((t): t is ToolSpec => t !== undefined);
  // Whole words and segmented Chinese, never a substring inside another word (docs/policy.md).
  const said = new Set(declaredCapabilities(request, known));
  return known
    .filter((tool) => !tool.intentKeywords || tool.intentKeywords.length === 0 || said.has(tool.name))
    .map((tool) => tool.name);
}
