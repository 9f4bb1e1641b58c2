import type { Approver } from '../gateway/index.js';
import { AgentFrame } from './agent-frame.js';
import { boundedApprover, denyingApprover } from './approvers.js';
import { SubagentDepthError, UnknownAgentDefinitionError } from './errors.js';
import { eventSource } from './event-source.js';
import type { SubagentRunMode } from './events.js';
import { hookAgentOf, runAgentLoop } from './loop.js';
import type { RunResult } from './run-result.js';
import { hostHookText, type SubagentDefinition } from './runtime-ports.js';

export interface SpawnRequest {
  /** Definition name. */
  readonly agent: string;
  readonly prompt: string;
  readonly mode: SubagentRunMode;
}

/** What the agent tool returns to the parent's model (through the gateway). */
export type SpawnOutcome =
  | { readonly agent: string; readonly status: RunResult['status']; readonly text: string }
  | {
      readonly agent: string;
      readonly task_id: string;
      readonly status: 'running';
      readonly mode: SubagentRunMode;
    };

/**
 * Starts a sub-agent for `parent`. Its tools come from the access layer and are intersected
 * with the parent's (a child never exceeds its parent); its mode from the access layer; its
 * cancellation is linked to the parent's. A foreground child is awaited; a background or teammate
 * child runs on and its result is read with `task_output` by the parent only. A child's failure
 * comes back as a result with a status, never as an exception in the parent.
 */
export async function spawnSubagent(
  parent: AgentFrame,
  req: SpawnRequest,
  callSignal: AbortSignal,
): Promise<SpawnOutcome> {
  const rt = parent.runtime;
  const depth = parent.depth + 1;
  if (depth > rt.limits.maxDepth) throw new SubagentDepthError(parent.depth, rt.limits.maxDepth);
  const definition = rt.definitions.get(req.agent);
  if (!definition) throw new UnknownAgentDefinitionError(req.agent);

  const mode: SubagentRunMode = req.mode === 'foreground' && definition.background ? 'background' : req.mode;
  const id = `${parent.id}/${definition.name}-${++rt.nextChild}`;
  const ref = {
    name: definition.name,
    depth,
    background: mode !== 'foreground',
    teammate: mode === 'teammate',
  };
  // The parent's grant with its current mode (plan mode may have been entered since).
  const parentGrant = { ...parent.grant, approvalMode: parent.approvalMode };
  const granted = rt.access.grant(
    { ref, parent: parentGrant, definition },
    rt.catalog.list(),
    rt.trustedFolder,
  );
  // Defence in depth: whatever the resolver says, a child gets nothing its parent lacks.
  const grant = { ...granted, tools: new Set([...granted.tools].filter((t) => parent.tools.has(t))) };
  const approvalMode = grant.approvalMode;
  const approver = childApprover(parent, mode, approvalMode);

  const child = new AgentFrame({
    runtime: rt,
    id,
    name: definition.name,
    depth,
    mode,
    parent,
    definition,
    grant,
    approvalMode,
    approver,
    provider: parent.provider.forSubagent?.(definition.name) ?? parent.provider,
    systemPrompt: systemPromptOf(definition),
    maxTurns: Math.min(definition.maxTurns ?? rt.limits.maxTurns, rt.limits.maxTurns),
    cancelledBy: mode === 'foreground' ? [parent.signal, callSignal] : [parent.signal],
  });
  rt.frames.set(id, child);

  if (mode === 'foreground') {
    const r = await rt.tracker.track(`agent ${id}`, runChild(child, req.prompt));
    return { agent: definition.name, status: r.status, text: r.text };
  }
  const taskId = rt.jobs.nextId();
  const done = rt.tracker.track(`agent ${id}`, runChild(child, req.prompt, taskId));
  rt.jobs.add({ id: taskId, frame: child, ownerId: parent.id, done, result: undefined });
  done.then((r) => {
    // Tell the owner on its next turn; it reads the output through task_output.
    parent.inbox.push({
      from: child.id,
      text: `background task ${taskId} (${definition.name}) finished: ${r.status}. Read it with task_output.`,
    });
  });
  return { agent: definition.name, task_id: taskId, status: 'running', mode };
}

/** Runs a child to its end; never throws. */
async function runChild(child: AgentFrame, prompt: string, taskId?: string): Promise<RunResult> {
  const rt = child.runtime;
  const parent = child.parent!;
  const mode = child.mode as SubagentRunMode;
  rt.bus.emit({
    ...eventSource(parent),
    type: 'subagent_started',
    childId: child.id,
    child: child.name,
    mode,
    approvalMode: child.approvalMode,
    tools: [...child.tools],
    ...(taskId ? { taskId } : {}),
  });
  let result: RunResult;
  try {
    const context = await subagentStartHook(child);
    const childPrompt =
      context === undefined
        ? prompt
        : `${prompt}\n\n${hostHookText("context from the host's SubagentStart hook", context)}`;
    result = await runAgentLoop(child, childPrompt, {
      signal: child.signal,
      budget: {
        maxTurns: child.maxTurns,
        ...(rt.limits.maxTokens === undefined ? {} : { maxTokens: rt.limits.maxTokens }),
        ...(rt.limits.maxWallMs === undefined ? {} : { maxWallMs: rt.limits.maxWallMs }),
        ...(rt.limits.maxCostUsd === undefined ? {} : { maxCostUsd: rt.limits.maxCostUsd }),
      },
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    result = {
      status: 'error',
      text: `The sub-agent failed: ${message}`,
      turns: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
      durationMs: 0,
      error: { code: 'agent.subagent_failed', message },
    };
  } finally {
    child.dispose();
  }
  rt.bus.emit({
    ...eventSource(parent),
    type: 'subagent_finished',
    childId: child.id,
    child: child.name,
    mode,
    status: result.status,
    text: result.text,
    ...(taskId ? { taskId } : {}),
  });
  return result;
}

/** The host's SubagentStart context for `child`; a failing hook adds nothing. */
async function subagentStartHook(child: AgentFrame): Promise<string | undefined> {
  const hooks = child.runtime.hooks;
  if (!hooks?.subagentStart) return undefined;
  try {
    return (await hooks.subagentStart(hookAgentOf(child), child.signal))?.context || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Who answers a child's `ask` verdicts. Foreground children ask whoever their parent asks.
 * Background children: `bubble` goes to the parent's approver, bounded by a timeout; any other
 * mode has no one to ask and is denied at once — a background agent never waits forever.
 */
function childApprover(
  parent: AgentFrame,
  mode: SubagentRunMode,
  approvalMode: string,
): Approver | undefined {
  const rt = parent.runtime;
  if (mode === 'foreground') return parent.approver;
  if (approvalMode !== 'bubble' || !parent.approver) {
    return denyingApprover('a background agent cannot ask for approval here (no bubble approver); denied');
  }
  const timeout = rt.limits.backgroundApprovalTimeoutMs;
  const bubbled = rt.access.bubbleApprover?.(parent.approver, timeout) ?? parent.approver;
  // Always bounded by our own tracked timer too, whatever the access layer's wrapper does.
  return boundedApprover(bubbled, timeout, rt.tracker, `bubbled approval ${parent.id}`);
}

function systemPromptOf(d: SubagentDefinition): string {
  return d.systemPrompt || `You are the ${d.name} agent. ${d.description}`;
}
