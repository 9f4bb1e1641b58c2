import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { yamlPackage } from '../../core/index.js';
import { InterruptedError, ProviderConfigError, ScriptExhaustedError } from '../errors.js';
import { abortableDelay } from './abortable-delay.js';
import type { ModelDelta, ModelProvider, ModelTurnRequest, ProposedToolCall } from './types.js';

const scriptedCall = z.object({
  id: z.string().optional(),
  name: z.string(),
  arguments: z.unknown().optional(),
});

/** One scripted model turn. Text and tool calls may both be present, as with real models. */
export const scriptedTurnSchema = z
  .object({
    text: z.string().optional(),
    tool_calls: z.array(scriptedCall).optional(),
    usage: z
      .object({
        input_tokens: z.number(),
        output_tokens: z.number(),
        cost_usd: z.number().nonnegative().optional(),
      })
      .optional(),
    /** Wait before answering (abortable): lets tests interrupt a turn in flight. */
    delay_ms: z.number().int().nonnegative().optional(),
  })
  .strict();

export type ScriptedTurn = z.input<typeof scriptedTurnSchema>;

/** A file is either a list of turns (the main agent) or turns plus per-sub-agent scripts. */
export const scriptSchema = z.union([
  z.array(scriptedTurnSchema),
  z
    .object({
      turns: z.array(scriptedTurnSchema),
      agents: z.record(z.string(), z.array(scriptedTurnSchema)).optional(),
    })
    .strict(),
]);

export type Script = z.input<typeof scriptSchema>;

/**
 * Plays a fixed list of turns and ignores what it is sent, so a test or an evaluation suite can
 * play any model — including a hostile one that proposes forbidden calls or lies in its text.
 */
export class ScriptedProvider implements ModelProvider {
  readonly kind = 'scripted';
  readonly model: string;
  readonly reportsCost: boolean;
  readonly #turns: readonly z.output<typeof scriptedTurnSchema>[];
  readonly #agents: Readonly<Record<string, readonly z.output<typeof scriptedTurnSchema>[]>>;
  #next = 0;

  constructor(script: Script, name = 'inline') {
    const parsed = scriptSchema.safeParse(script);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ProviderConfigError(
        'agent.bad_script',
        `invalid script: ${issue?.message ?? 'unknown'} at ${issue?.path.join('.') || '(root)'}`,
        { where: `scripted:${name}` },
      );
    }
    this.model = name;
    if (Array.isArray(parsed.data)) {
      this.#turns = parsed.data;
      this.#agents = {};
    } else {
      this.#turns = parsed.data.turns;
      this.#agents = parsed.data.agents ?? {};
    }
    // A script that gives a cost for any turn plays a provider that reports cost.
    this.reportsCost = this.#turns.some((t) => t.usage?.cost_usd !== undefined);
  }

  /** Loads a script from a JSON or YAML file. */
  static fromFile(path: string): ScriptedProvider {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new ProviderConfigError('agent.bad_script', 'cannot read the script file', {
        where: `scripted:${path}`,
        cause: err,
      });
    }
    let data: unknown;
    try {
      data = /\.json$/i.test(path) ? JSON.parse(text) : yamlPackage().parse(text);
    } catch (err) {
      throw new ProviderConfigError('agent.bad_script', `not valid JSON/YAML: ${(err as Error).message}`, {
        where: `scripted:${path}`,
        cause: err,
      });
    }
    return new ScriptedProvider(data as Script, path);
  }

  /** How many turns have been played. */
  get played(): number {
    return this.#next;
  }

  forSubagent(definitionName: string): ModelProvider {
    return new ScriptedProvider(
      {
        turns: [...(this.#agents[definitionName] ?? [])],
        agents: Object.fromEntries(Object.entries(this.#agents).map(([k, v]) => [k, [...v]])),
      },
      `${this.model}#${definitionName}`,
    );
  }

  async *turn(request: ModelTurnRequest): AsyncIterable<ModelDelta> {
    const where = `scripted:${this.model}`;
    if (request.signal.aborted) throw new InterruptedError(where);
    const turn = this.#turns[this.#next];
    if (!turn) throw new ScriptExhaustedError(where, this.#next);
    const index = this.#next++;
    if (turn.delay_ms) await abortableDelay(turn.delay_ms, request.signal, where);
    const text = turn.text ?? '';
    // Stream word by word so consumers see real deltas.
    for (const piece of text.match(/\S+\s*|\s+/g) ?? []) {
      if (request.signal.aborted) throw new InterruptedError(where);
      yield { type: 'text_delta', text: piece };
    }
    const toolCalls: ProposedToolCall[] = (turn.tool_calls ?? []).map((c, i) => ({
      id: c.id ?? `scripted_${index}_${i}`,
      name: c.name,
      arguments: c.arguments ?? {},
    }));
    // Rough estimate (4 characters a token) only when the script gives no usage.
    const estimate = () => Math.ceil((JSON.stringify(request.messages).length + request.system.length) / 4);
    yield {
      type: 'message',
      message: { text, toolCalls, finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop' },
      usage: turn.usage
        ? {
            inputTokens: turn.usage.input_tokens,
            outputTokens: turn.usage.output_tokens,
            ...(turn.usage.cost_usd === undefined ? {} : { costUsd: turn.usage.cost_usd }),
          }
        : { inputTokens: estimate(), outputTokens: Math.ceil((text.length + 1) / 4) },
    };
  }
}
