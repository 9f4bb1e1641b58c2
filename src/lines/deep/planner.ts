import { z } from 'zod';
import { completeTurn, type ModelProvider, type ToolDeclaration } from '../../agent/index.js';
import type { ToolSpec } from '../../tools/index.js';
import type { Plan } from './plan.js';

/** The planner as the deep line sees it: a plan for a request, then a final answer from summaries. */
export interface PlannerPort {
  /** Returns the planner's raw answer (a JSON plan). `consumedTurns` is where a resumed task stands. */
  plan(
    request: string,
    tools: readonly ToolSpec[],
    consumedTurns: number,
    signal?: AbortSignal,
  ): Promise<string>;
  /** Returns the final answer from the plan and the step summaries (never the raw outputs). */
  compose(
    request: string,
    plan: Plan,
    summaries: readonly string[],
    consumedTurns: number,
    signal?: AbortSignal,
  ): Promise<string>;
}

// Role and output format only: no permission rule lives in a prompt (seed 004 §3.4).
const PLANNER_SYSTEM = [
  'You plan multi-step analysis tasks for an office assistant.',
  'Answer with JSON only: {"goal": string, "capabilities": [tool names of high-risk tools the plan needs],',
  '"steps": [{"goal": string, "tool": string, "args": object, "expected": string}]}.',
  'Use only the tools listed. Dates are ISO-8601.',
].join('\n');

const COMPOSER_SYSTEM =
  'You write the final answer of an analysis task from the step summaries you are given. Be concise; cite the steps.';

/** The prompt messages of a planning turn (exported so benchmarks can measure context size). */
export function plannerMessages(request: string, now: Date) {
  return {
    system: `${PLANNER_SYSTEM}\nCurrent time: ${now.toISOString()}`,
    messages: [{ role: 'user' as const, content: request }],
  };
}

/** The prompt of the composing turn: the request and one summary line per step. */
export function composerMessages(request: string, plan: Plan, summaries: readonly string[]) {
  return {
    system: COMPOSER_SYSTEM,
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
  ) {}

  async plan(
    request: string,
    tools: readonly ToolSpec[],
    consumed: number,
    signal?: AbortSignal,
  ): Promise<string> {
    await this.#seek(consumed, signal);
    const { system, messages } = plannerMessages(request, this.now());
    return this.#text(system, messages, tools.map(declare), signal);
  }

  async compose(
    request: string,
    plan: Plan,
    summaries: readonly string[],
    consumed: number,
    signal?: AbortSignal,
  ) {
    await this.#seek(consumed, signal);
    const { system, messages } = composerMessages(request, plan, summaries);
    return this.#text(system, messages, [], signal);
  }

  async #seek(consumed: number, signal?: AbortSignal): Promise<void> {
    if (this.provider.kind !== 'scripted') return;
    while (this.#played < consumed) {
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
