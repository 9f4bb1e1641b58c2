import { TwinlineError } from '../core/index.js';
import type { GatewayResult } from '../gateway/index.js';
import { linkedController } from './abort.js';
import type { AgentFrame } from './agent-frame.js';
import { callBatches } from './call-batches.js';
import { InterruptedError, modelFailureSentence, ProviderError } from './errors.js';
import { eventSource } from './event-source.js';
import type { EventSource, RunStatus } from './events.js';
import type { AssistantMessage, ProposedToolCall, TokenUsage } from './providers/index.js';
import { budgetStop, type RunBudget } from './run-budget.js';
import type { RunResult } from './run-result.js';
import { type HookAgent, hostHookText } from './runtime-ports.js';
import { declarationsFor } from './tool-declarations.js';
import { invokeThroughGateway } from './tool-invocation.js';

const BUDGET_REASON = 'budget exceeded';

/** What the loop needs of its run's cancellation: the signal, and unlinking it at the end. */
interface RunSignal {
  readonly signal: AbortSignal;
  dispose(): void;
}

/**
 * One run of an agent: model turn → proposed calls → gateway → results back to the model, until
 * the model answers in text, the turn or token/time budget is spent, or the run is cancelled.
 * The model only ever sees `GatewayResult.modelContent`. The run always resolves with a result;
 * errors and interrupts are statuses, so a next run on the same frame works.
 */
export async function runAgentLoop(
  frame: AgentFrame,
  prompt: string,
  options: { readonly signal: AbortSignal; readonly budget: RunBudget },
): Promise<RunResult> {
  const rt = frame.runtime;
  // Events are flat literals built from `src` (no spread): a spread then more properties makes
  // V8 grow each event's shape one property at a time, on every event.
  const src = eventSource(frame);
  const started = Date.now();
  const budget = options.budget;
  // Without a wall budget nothing but the caller's signal can stop the run, so the run follows
  // that signal directly instead of through a controller linked to it (the common quick-line case).
  const budgetAbort = budget.maxWallMs === undefined ? undefined : new AbortController();
  const run: RunSignal = budgetAbort
    ? linkedController(options.signal, budgetAbort.signal)
    : { signal: options.signal, dispose: () => {} };
  const clearWall =
    budget.maxWallMs === undefined || !budgetAbort
      ? () => {}
      : rt.tracker.setTimer(`wall budget ${frame.id}`, budget.maxWallMs, () =>
          budgetAbort.abort(BUDGET_REASON),
        );
  let usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  let turns = 0;
  let stopHookActive = false;

  const finish = (status: RunStatus, text: string, error?: RunResult['error']): RunResult => {
    clearWall();
    run.dispose();
    const result: RunResult = {
      status,
      text,
      turns,
      usage,
      durationMs: Date.now() - started,
      ...(error ? { error } : {}),
    };
    if (rt.bus.wants('result'))
      rt.bus.emit({
        sessionId: src.sessionId,
        agentId: src.agentId,
        agent: src.agent,
        depth: src.depth,
        type: 'result',
        status,
        text,
        turns,
        usage,
        durationMs: result.durationMs,
      });
    return result;
  };
  const stopped = (): RunResult =>
    budgetAbort?.signal.aborted
      ? finish('budget_exceeded', `Stopped: the run's time budget of ${budget.maxWallMs} ms is spent.`)
      : finish('interrupted', 'Interrupted.');

  frame.history.push({ role: 'user', content: prompt });

  while (true) {
    if (run.signal.aborted) return stopped();
    const limit = budgetStop(budget, { turns, usage, elapsedMs: Date.now() - started });
    if (limit === 'max_turns')
      return finish('max_turns', `Stopped after ${turns} turn(s) without a final answer.`);
    if (limit) return finish('budget_exceeded', "Stopped: the run's token or time budget is spent.");
    deliverInbox(frame);

    turns++;
    if (rt.bus.wants('turn_start'))
      rt.bus.emit({
        sessionId: src.sessionId,
        agentId: src.agentId,
        agent: src.agent,
        depth: src.depth,
        type: 'turn_start',
        turn: turns,
      });
    let message: AssistantMessage | undefined;
    let turnUsage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
    try {
      for await (const delta of frame.provider.turn({
        system: frame.systemPrompt,
        messages: frame.history,
        tools: declarationsFor(rt.catalog, frame.tools),
        signal: run.signal,
      })) {
        if (delta.type === 'text_delta') {
          if (rt.bus.wants('text_delta'))
            rt.bus.emit({
              sessionId: src.sessionId,
              agentId: src.agentId,
              agent: src.agent,
              depth: src.depth,
              type: 'text_delta',
              text: delta.text,
            });
        } else if (delta.type === 'retry') {
          rt.bus.emit({
            ...src,
            type: 'retry',
            attempt: delta.attempt,
            delayMs: delta.delayMs,
            ...(delta.status === undefined ? {} : { status: delta.status }),
            ...(delta.reason === undefined ? {} : { reason: delta.reason }),
          });
        } else {
          message = delta.message;
          turnUsage = delta.usage;
        }
      }
    } catch (err) {
      emitTurnEnd(frame, src, turns, turnUsage);
      if (run.signal.aborted || err instanceof InterruptedError) return stopped();
      if (err instanceof ProviderError) {
        // our words go out with the event; what the service said stays in the result, for the log
        const e = { code: err.code, message: err.message, failure: err.failure };
        rt.bus.emit({ ...src, type: 'error', ...e });
        const sentence = modelFailureSentence(err.failure);
        return finish('error', `${sentence[0]!.toUpperCase()}${sentence.slice(1)}.`, {
          ...e,
          ...(err.detail ? { detail: err.detail } : {}),
        });
      }
      const e = errorInfo(err);
      rt.bus.emit({ ...src, type: 'error', ...e });
      return finish('error', `The model failed: ${e.message}`, e);
    }
    usage = {
      inputTokens: usage.inputTokens + turnUsage.inputTokens,
      outputTokens: usage.outputTokens + turnUsage.outputTokens,
      ...(usage.costUsd === undefined && turnUsage.costUsd === undefined
        ? {}
        : { costUsd: (usage.costUsd ?? 0) + (turnUsage.costUsd ?? 0) }),
    };
    if (!message) {
      emitTurnEnd(frame, src, turns, turnUsage);
      const e = { code: 'agent.provider_failed', message: 'the model ended its turn without a message' };
      rt.bus.emit({ ...src, type: 'error', ...e });
      return finish('error', e.message, e);
    }

    frame.history.push({
      role: 'assistant',
      content: message.text,
      ...(message.toolCalls.length > 0 ? { toolCalls: message.toolCalls } : {}),
    });
    if (message.toolCalls.length === 0) {
      emitTurnEnd(frame, src, turns, turnUsage);
      const keepGoing = await stopHook(frame, message.text, stopHookActive, run.signal);
      if (keepGoing !== undefined && !run.signal.aborted) {
        stopHookActive = true;
        frame.history.push({ role: 'user', content: hostHookText("the host's Stop hook", keepGoing) });
        continue;
      }
      return finish('completed', message.text);
    }

    await runToolCalls(frame, message.toolCalls, run.signal);
    emitTurnEnd(frame, src, turns, turnUsage);
  }
}

/**
 * Runs one turn's calls through the gateway, batch by batch. Every proposed call gets exactly one
 * tool message back in the model's order; calls not started because the run was cancelled are
 * answered "not run" so the conversation stays well-formed for the next run.
 */
async function runToolCalls(
  frame: AgentFrame,
  calls: readonly ProposedToolCall[],
  signal: AbortSignal,
): Promise<void> {
  const rt = frame.runtime;
  const src = eventSource(frame);
  const contents = new Map<ProposedToolCall, string>();
  for (const call of calls) {
    if (!rt.bus.wants('tool_proposed')) break;
    rt.bus.emit({
      sessionId: src.sessionId,
      agentId: src.agentId,
      agent: src.agent,
      depth: src.depth,
      type: 'tool_proposed',
      callId: call.id,
      tool: call.name,
      arguments: call.arguments,
    });
  }
  const safe = (c: ProposedToolCall) =>
    rt.catalog.get(c.name)?.concurrencySafe === true && frame.tools.has(c.name);
  for (const batch of callBatches(calls, safe)) {
    if (signal.aborted) break;
    await Promise.all(
      batch.map(async (call) => {
        const result = await invokeThroughGateway(frame, call, signal);
        report(frame, call, result);
        const context =
          result.status === 'executed' ? await afterCallHook(frame, call, result, signal) : undefined;
        contents.set(
          call,
          context === undefined
            ? result.modelContent
            : `${result.modelContent}\n${hostHookText("context from the host's PostToolUse hook", context)}`,
        );
      }),
    );
  }
  for (const call of calls) {
    frame.history.push({
      role: 'tool',
      toolCallId: call.id,
      name: call.name,
      content: contents.get(call) ?? `Tool ${call.name} was not run: the run was interrupted.`,
    });
  }
}

function report(frame: AgentFrame, call: ProposedToolCall, result: GatewayResult): void {
  const src = eventSource(frame);
  const bus = frame.runtime.bus;
  if (bus.wants('decision'))
    bus.emit({
      sessionId: src.sessionId,
      agentId: src.agentId,
      agent: src.agent,
      depth: src.depth,
      type: 'decision',
      callId: call.id,
      tool: call.name,
      status: result.status,
      decision: result.decision,
      path: result.path,
      auditId: result.auditId,
    });
  if (bus.wants('tool_result'))
    bus.emit({
      sessionId: src.sessionId,
      agentId: src.agentId,
      agent: src.agent,
      depth: src.depth,
      type: 'tool_result',
      callId: call.id,
      tool: call.name,
      status: result.status,
      content: result.modelContent,
      durationMs: result.durationMs,
    });
}

export function hookAgentOf(frame: AgentFrame): HookAgent {
  return { agentId: frame.id, agentType: frame.depth === 0 ? 'main' : frame.name, depth: frame.depth };
}

/** The host's PostToolUse context for an executed call; a failing hook adds nothing. */
async function afterCallHook(
  frame: AgentFrame,
  call: ProposedToolCall,
  result: GatewayResult,
  signal: AbortSignal,
): Promise<string | undefined> {
  const hooks = frame.runtime.hooks;
  if (!hooks?.afterCall) return undefined;
  try {
    const answer = await hooks.afterCall(hookAgentOf(frame), call, result, signal);
    return answer?.context || undefined;
  } catch {
    return undefined;
  }
}

/** The host's Stop (or SubagentStop) hook: an instruction to keep going, or undefined to stop. */
async function stopHook(
  frame: AgentFrame,
  lastText: string,
  active: boolean,
  signal: AbortSignal,
): Promise<string | undefined> {
  const hooks = frame.runtime.hooks;
  if (!hooks?.beforeStop) return undefined;
  try {
    const answer = await hooks.beforeStop(hookAgentOf(frame), lastText, active, signal);
    return answer?.continueWith || undefined;
  } catch {
    // a hook that fails never keeps an agent running
    return undefined;
  }
}

/** Ends a turn for listeners (built only when someone listens: most quick-line runs do not). */
function emitTurnEnd(frame: AgentFrame, src: EventSource, turn: number, usage: TokenUsage): void {
  if (frame.runtime.bus.wants('turn_end'))
    frame.runtime.bus.emit({
      sessionId: src.sessionId,
      agentId: src.agentId,
      agent: src.agent,
      depth: src.depth,
      type: 'turn_end',
      turn,
      usage,
    });
}

/** Messages from teammates and finished background agents, shown to the model as quoted data. */
function deliverInbox(frame: AgentFrame): void {
  if (frame.inbox.length === 0) return;
  const lines = frame.inbox.splice(0).map((m) => `[message from ${m.from}] ${JSON.stringify(m.text)}`);
  frame.history.push({ role: 'user', content: lines.join('\n') });
}

function errorInfo(err: unknown): { code: string; message: string; where?: string } {
  if (err instanceof TwinlineError) {
    return { code: err.code, message: err.message, ...(err.where ? { where: err.where } : {}) };
  }
  return { code: 'agent.error', message: err instanceof Error ? err.message : String(err) };
}
