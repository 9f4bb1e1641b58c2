import { z } from 'zod';
import { completeTurn, type ModelProvider, type ToolDeclaration } from '../../agent/index.js';
import type { ToolSpec } from '../../tools/index.js';
import type { Plan } from './plan.js';

/**
 * Where the conversation with the planner stands: the model turns a resumed task already consumed
 * (a scripted model is fast-forwarded past them) and the run's abort signal.
 */
export interface PlannerTurn {
  readonly consumedTurns: number;
  readonly signal?: AbortSignal | undefined;
}

/** What the planner is shown once steps ran: the request, the plan, the relevant step summaries (never raw outputs). */
export interface PlanProgress {
  readonly request: string;
  readonly plan: Plan;
  readonly summaries: readonly string[];
}

/** The planner as the deep line sees it: a plan for a request, then a final answer from summaries. */
export interface PlannerPort {
  /** Returns the planner's raw answer (a JSON plan). */
  plan(request: string, tools: readonly ToolSpec[], turn: PlannerTurn): Promise<string>;
  /**
   * After step `failedStep` failed: a revision of the remaining steps (`{"steps": [...]}`) or
   * anything else to keep the plan. Optional: a planner without it never replans.
   */
  revise?(progress: PlanProgress & { readonly failedStep: number }, turn: PlannerTurn): Promise<string>;
  /** Returns the final answer from the plan and the step summaries. */
  compose(progress: PlanProgress, turn: PlannerTurn): Promise<string>;
}

/** The planner's role when the domain's config names none (`prompts.planner`). */
export const DEFAULT_PLANNER_ROLE = 'You plan multi-step analysis tasks for an assistant.';

/** The composer's instructions when the domain's config names none (`prompts.composer`). */
export const DEFAULT_COMPOSER_PROMPT =
  'You write the final answer of an analysis task from the step summaries you are given. Be concise; cite the steps.';

/** The domain's own role lines for the deep line's prompts (the plan format stays fixed). */
export interface DeepPrompts {
  readonly planner?: string;
  readonly composer?: string;
}

// Role and output format only: no permission rule lives in a prompt (docs/lines.md, "Two trust chains").
const PLAN_FORMAT = [
  'Answer with JSON only: {"goal": string, "capabilities": [tool names of high-risk tools the plan needs],',
  '"steps": [{"goal": string, "tool": string, "args": object, "expected": string}]}.',
  'Use only the tools listed. Dates are ISO-8601.',
].join('\n');

/** The prompt messages of a planning turn (exported so benchmarks can measure context size). */
export function plannerMessages(request: string, now: Date, role: string = DEFAULT_PLANNER_ROLE) {
  return {
    system: `${role}\n${PLAN_FORMAT}\nCurrent time: ${now.toISOString()}`,
    messages: [{ role: 'user' as const, content: request }],
  };
}

const REVISER_SYSTEM = [
  'A step of your plan failed. Either answer {"steps": [...]} with new remaining steps',
  '(same step format; only tools you already used or declared), or answer {"continue": true}.',
].join('\n');

/** The prompt of a revision turn: the plan, the failed step, and the relevant summaries. */
export function reviserMessages(
  request: string,
  plan: Plan,
  summaries: readonly string[],
  failedStep: number,
) {
  return {
    system: REVISER_SYSTEM,
    messages: [
      {
        role: 'user' as const,
        content: `Request: ${request}\nGoal: ${plan.goal}\nFailed step: #${failedStep}\nPlan: ${JSON.stringify(plan.steps.map((s) => ({ goal: s.goal, tool: s.tool })))}\nStep summaries:\n${summaries.join('\n')}`,
      },
    ],
  };
}

/** The prompt of the composing turn: the request and one summary line per step. */
export function composerMessages(
  request: string,
  plan: Plan,
  summaries: readonly string[],
  system: string = DEFAULT_COMPOSER_PROMPT,
) {
  return {
    system,
    messages: [
      {
        role: 'user' as const,
        content: `Request: ${request}\nGoal: ${plan.goal}\nStep summaries:\n${summaries.join('\n')}`,
      },
    ],
  };
}

/**
 * A planner over any model provider. A scripted (deterministic) provider restarted after a crash
 * is fast-forwarded past the turns the task already consumed, so a resumed task hears the same
 * script it would have heard without the crash.
 */
export class ModelPlanner implements PlannerPort {
  #played = 0;

  constructor(
    private readonly provider: ModelProvider,
    private readonly now: () => Date = () => new Date(),
    private readonly prompts: DeepPrompts = {},
  ) {}

  async plan(request: string, tools: readonly ToolSpec[], turn: PlannerTurn): Promise<string> {
    await this.#seek(turn);
    const { system, messages } = plannerMessages(request, this.now(), this.prompts.planner);
    return this.#text(system, messages, tools.map(declare), turn.signal);
  }

  async revise(progress: PlanProgress & { readonly failedStep: number }, turn: PlannerTurn): Promise<string> {
    await this.#seek(turn);
    const { request, plan, summaries, failedStep } = progress;
    const { system, messages } = reviserMessages(request, plan, summaries, failedStep);
    return this.#text(system, messages, [], turn.signal);
  }

  async compose(progress: PlanProgress, turn: PlannerTurn): Promise<string> {
    await this.#seek(turn);
    const { request, plan, summaries } = progress;
    const { system, messages } = composerMessages(request, plan, summaries, this.prompts.composer);
    return this.#text(system, messages, [], turn.signal);
  }

  async #seek({ consumedTurns, signal }: PlannerTurn): Promise<void> {
    if (this.provider.kind !== 'scripted') return;
    while (this.#played < consumedTurns) {
      await completeTurn(this.provider, {
        system: '',
        messages: [],
        tools: [],
        signal: signal ?? new AbortController().signal,
      });
      this.#played++;
    }
  }

  async #text(
    system: string,
    messages: { role: 'user'; content: string }[],
    tools: ToolDeclaration[],
    signal?: AbortSignal,
  ): Promise<string> {
    const { message } = await completeTurn(this.provider, {
      system,
      messages,
      tools,
      signal: signal ?? new AbortController().signal,
    });
    this.#played++;
    if (!message.text.trim()) throw new Error('the planner answered without text');
    return message.text;
  }
}

function declare(tool: ToolSpec): ToolDeclaration {
  return {
    name: tool.name,
    description: tool.description,
    parameters: z.toJSONSchema(tool.inputSchema, { unrepresentable: 'any' }) as Record<string, unknown>,
  };
}
