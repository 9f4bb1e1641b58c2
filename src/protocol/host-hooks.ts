import type { AgentHooks, HookAgent } from '../agent/index.js';
import { canonicalJson } from '../core/index.js';
import type {
  CallContext,
  GatewayResult,
  PreparedCall,
  ToolHookAnswer,
  ToolHooks,
} from '../gateway/index.js';
import type { ControlBus } from './control-bus.js';

/** Hook events Twinline calls back (the Claude Agent SDK's names). */
export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** The SDK's default, in seconds, when a matcher gives no `timeout`. */
const DEFAULT_TIMEOUT_S = 60;
const MAX_TIMEOUT_S = 600;

interface Registration {
  readonly event: HookEventName;
  readonly matches: (tool: string) => boolean;
  readonly ids: readonly string[];
  readonly timeoutMs: number;
}

/** Names a tool is known by to a host's matcher: ours, and the other runtimes' for the same tool. */
export type ToolNamesFor = (tool: string) => readonly string[];

function matcherOf(raw: unknown): ((names: readonly string[]) => boolean) | string {
  if (raw === undefined || raw === null || raw === '' || raw === '*') return () => true;
  if (typeof raw !== 'string' || raw.length > 1000)
    return 'matcher must be a string of at most 1000 characters';
  let re: RegExp | undefined;
  try {
    re = new RegExp(`^(?:${raw})$`);
  } catch {
    re = undefined;
  }
  return (names) => names.some((n) => n === raw || re?.test(n) === true);
}

function readMatcher(
  event: HookEventName,
  m: unknown,
  at: string,
  namesFor: ToolNamesFor,
  out: Registration[],
): string | undefined {
  if (typeof m !== 'object' || m === null) return `${at} must be an object`;
  const entry = m as Record<string, unknown>;
  const ids = entry['hookCallbackIds'];
  if (
    !Array.isArray(ids) ||
    ids.length === 0 ||
    ids.some((id) => typeof id !== 'string' || !id || id.length > 256)
  ) {
    return `${at}.hookCallbackIds must be a list of callback ids`;
  }
  const timeout = entry['timeout'];
  if (timeout !== undefined && (typeof timeout !== 'number' || !(timeout > 0))) {
    return `${at}.timeout must be a positive number of seconds`;
  }
  const matcher = matcherOf(entry['matcher']);
  if (typeof matcher === 'string') return `${at}: ${matcher}`;
  out.push({
    event,
    matches: (tool) => matcher(namesFor(tool)),
    ids: ids as string[],
    timeoutMs: Math.min(typeof timeout === 'number' ? timeout : DEFAULT_TIMEOUT_S, MAX_TIMEOUT_S) * 1000,
  });
  return undefined;
}

/**
 * Reads `initialize.hooks` (`{ Event: [{ matcher?, hookCallbackIds, timeout? }] }`). Events Twinline
 * does not call are reported and skipped; a malformed entry is reported and skipped (the host
 * then sees no call for it, and the initialize answer lists the problem).
 */
export function readHookRegistrations(
  raw: unknown,
  namesFor: ToolNamesFor,
): { registrations: Registration[]; problems: string[] } {
  const registrations: Registration[] = [];
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { registrations, problems };
  if (typeof raw !== 'object' || Array.isArray(raw))
    return { registrations, problems: ['hooks must be an object'] };
  for (const [event, matchers] of Object.entries(raw as Record<string, unknown>)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      problems.push(
        `hook event ${event.slice(0, 64)} is not called by Twinline (supported: ${HOOK_EVENTS.join(', ')})`,
      );
      continue;
    }
    if (!Array.isArray(matchers)) {
      problems.push(`hooks.${event} must be an array`);
      continue;
    }
    matchers.forEach((m, i) => {
      const problem = readMatcher(event as HookEventName, m, `hooks.${event}.${i}`, namesFor, registrations);
      if (problem) problems.push(problem);
    });
  }
  return { registrations, problems };
}

/** One callback's answer, read defensively: undefined means it failed (error, timeout, garbage). */
interface HookOutput {
  readonly continue?: boolean;
  readonly stopReason?: string;
  readonly decision?: 'approve' | 'block';
  readonly reason?: string;
  readonly permissionDecision?: 'allow' | 'deny' | 'ask';
  readonly permissionDecisionReason?: string;
  readonly updatedInput?: Record<string, unknown>;
  readonly additionalContext?: string;
  readonly async?: boolean;
}

function optionalString(v: unknown): v is string | undefined {
  return v === undefined || typeof v === 'string';
}

/** A `HookJSONOutput`, or undefined when it is not one (the hook then counts as failed). */
export function readHookOutput(raw: unknown): HookOutput | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const o = raw as Record<string, unknown>;
  if (o['async'] === true) return { async: true };
  if (o['continue'] !== undefined && typeof o['continue'] !== 'boolean') return undefined;
  if (!optionalString(o['stopReason']) || !optionalString(o['reason'])) return undefined;
  if (o['decision'] !== undefined && o['decision'] !== 'approve' && o['decision'] !== 'block')
    return undefined;
  const specific = o['hookSpecificOutput'];
  let s: Record<string, unknown> = {};
  if (specific !== undefined) {
    if (typeof specific !== 'object' || specific === null || Array.isArray(specific)) return undefined;
    s = specific as Record<string, unknown>;
  }
  const pd = s['permissionDecision'];
  if (pd !== undefined && pd !== 'allow' && pd !== 'deny' && pd !== 'ask') return undefined;
  if (!optionalString(s['permissionDecisionReason']) || !optionalString(s['additionalContext']))
    return undefined;
  const ui = s['updatedInput'];
  if (ui !== undefined && (typeof ui !== 'object' || ui === null || Array.isArray(ui))) return undefined;
  return {
    ...(o['continue'] !== undefined ? { continue: o['continue'] as boolean } : {}),
    ...(o['stopReason'] !== undefined ? { stopReason: o['stopReason'] as string } : {}),
    ...(o['decision'] !== undefined ? { decision: o['decision'] as 'approve' | 'block' } : {}),
    ...(o['reason'] !== undefined ? { reason: o['reason'] as string } : {}),
    ...(pd !== undefined ? { permissionDecision: pd as 'allow' | 'deny' | 'ask' } : {}),
    ...(s['permissionDecisionReason'] !== undefined
      ? { permissionDecisionReason: s['permissionDecisionReason'] as string }
      : {}),
    ...(ui !== undefined ? { updatedInput: ui as Record<string, unknown> } : {}),
    ...(s['additionalContext'] !== undefined ? { additionalContext: s['additionalContext'] as string } : {}),
  };
}

/** What the engine lends the hooks for the running turn. */
export interface HookTurn {
  /** The id the host knows a call by (the model's tool_use id). */
  toolUseId(call: PreparedCall['call']): string;
  /** A value as the host may see it (the egress gate). */
  present(value: unknown): unknown;
  /** Ends the running turn (a hook answered `continue: false`). */
  stop(reason: string): void;
}

/** The session facts every hook input carries. */
export interface HookSession {
  readonly sessionId: string;
  readonly cwd: string;
  permissionMode(): string;
}

type Outcome = { readonly ok: true; readonly out: HookOutput } | { readonly ok: false; readonly why: string };

/**
 * The host's hooks, called back with `hook_callback` over the control bus. PreToolUse answers
 * are the gateway's `hooks` slot (stricter only: deny, ask, or an edit decided again from the
 * first slot); the others add context or keep an agent going. A hook that errs, answers garbage
 * or does not answer within its timeout counts on the safe side: the call is denied, the prompt
 * is not run, the agent stops.
 */
export class HostHooks implements ToolHooks, AgentHooks {
  turn: HookTurn | undefined;
  readonly #regs: readonly Registration[];

  constructor(
    private readonly bus: ControlBus,
    registrations: readonly Registration[],
    private readonly session: HookSession,
  ) {
    this.#regs = registrations;
  }

  has(event: HookEventName): boolean {
    return this.#regs.some((r) => r.event === event);
  }

  #base(event: HookEventName, agent?: HookAgent): Record<string, unknown> {
    return {
      session_id: this.session.sessionId,
      transcript_path: '',
      cwd: this.session.cwd,
      permission_mode: this.session.permissionMode(),
      hook_event_name: event,
      ...(agent && agent.depth > 0 ? { agent_id: agent.agentId, agent_type: agent.agentType } : {}),
    };
  }

  /** Calls every callback registered for `event` (and matching `tool`), in parallel. */
  async #call(
    event: HookEventName,
    input: Record<string, unknown>,
    tool: string | undefined,
    toolUseId: string | undefined,
    signal?: AbortSignal,
  ): Promise<Outcome[]> {
    const calls: Promise<Outcome>[] = [];
    for (const r of this.#regs) {
      if (r.event !== event || (tool !== undefined && !r.matches(tool))) continue;
      for (const id of r.ids) {
        calls.push(
          this.bus
            .request(
              {
                subtype: 'hook_callback',
                callback_id: id,
                ...(toolUseId !== undefined ? { tool_use_id: toolUseId } : {}),
                input,
              },
              { timeoutMs: r.timeoutMs, ...(signal ? { signal } : {}) },
            )
            .then(
              (raw): Outcome => {
                const out = readHookOutput(raw);
                return out
                  ? { ok: true, out }
                  : { ok: false, why: 'the hook answered something that is not hook output' };
              },
              (err: unknown): Outcome => ({
                ok: false,
                why: err instanceof Error ? err.message : String(err),
              }),
            ),
        );
      }
    }
    return Promise.all(calls);
  }

  #stopIfAsked(outcomes: readonly Outcome[]): string | undefined {
    for (const o of outcomes) {
      if (o.ok && o.out.continue === false) {
        const reason = o.out.stopReason || 'a hook of the host stopped the turn';
        this.turn?.stop(reason);
        return reason;
      }
    }
    return undefined;
  }

  async beforeCall(call: PreparedCall, ctx: CallContext): Promise<ToolHookAnswer | undefined> {
    if (!this.#regs.some((r) => r.event === 'PreToolUse' && r.matches(call.tool.name))) return undefined;
    const turn = this.turn;
    const shown = turn ? turn.present(call.args) : call.args;
    const toolUseId = turn ? turn.toolUseId(call.call) : call.call.id;
    const agent = ctx.agent && ctx.agent.depth > 0 ? ctx.agent : undefined;
    const input = {
      ...this.#base('PreToolUse'),
      ...(agent ? { agent_type: agent.name } : {}),
      tool_name: call.tool.name,
      tool_input: shown,
      tool_use_id: toolUseId,
    };
    const outcomes = await this.#call('PreToolUse', input, call.tool.name, toolUseId, ctx.signal);
    const failed = outcomes.find((o): o is Extract<Outcome, { ok: false }> => !o.ok);
    if (failed)
      return { verdict: 'deny', reason: `the hook did not answer (${failed.why}), so the call is not run` };
    const stopped = this.#stopIfAsked(outcomes);
    if (stopped) return { verdict: 'deny', reason: stopped };
    let verdict: ToolHookAnswer['verdict'] = 'allow';
    const reasons: string[] = [];
    const edits: Record<string, unknown>[] = [];
    for (const o of outcomes) {
      if (!o.ok || o.out.async) continue;
      const out = o.out;
      const why = out.permissionDecisionReason ?? out.reason;
      if (out.permissionDecision === 'deny' || out.decision === 'block') {
        verdict = 'deny';
        if (why) reasons.push(why);
      } else if (out.permissionDecision === 'ask') {
        if (verdict !== 'deny') verdict = 'ask';
        if (why) reasons.push(why);
      }
      // An input echoed back exactly as it was shown is "as proposed", not an edit: what the host
      // saw may be masked, and masked values must never replace the real ones.
      if (out.updatedInput && canonicalJson(out.updatedInput) !== canonicalJson(shown))
        edits.push(out.updatedInput);
    }
    const reason = reasons.join('; ') || undefined;
    if (verdict === 'deny') return { verdict, ...(reason ? { reason } : {}) };
    if (edits.length > 1 && edits.some((e) => canonicalJson(e) !== canonicalJson(edits[0]))) {
      return { verdict: 'deny', reason: 'two hooks edited the input differently' };
    }
    return { verdict, ...(reason ? { reason } : {}), ...(edits[0] ? { updatedArgs: edits[0] } : {}) };
  }

  async afterCall(
    agent: HookAgent,
    call: { readonly id: string; readonly name: string; readonly arguments: unknown },
    result: GatewayResult,
    signal: AbortSignal,
  ): Promise<{ readonly context?: string } | undefined> {
    if (!this.#regs.some((r) => r.event === 'PostToolUse' && r.matches(call.name))) return undefined;
    const turn = this.turn;
    const toolUseId = turn && agent.depth === 0 ? turn.toolUseId(call) : result.callId;
    const present = turn ? (v: unknown) => turn.present(v) : (v: unknown) => v;
    const input = {
      ...this.#base('PostToolUse', agent),
      tool_name: call.name,
      tool_input: present(call.arguments),
      // The host sees what the model sees: the gateway's content, through the egress gate.
      tool_response: present(result.modelContent),
      tool_use_id: toolUseId,
      duration_ms: Math.round(result.durationMs),
    };
    const outcomes = await this.#call('PostToolUse', input, call.name, toolUseId, signal);
    this.#stopIfAsked(outcomes);
    const context = outcomes
      .flatMap((o) => {
        if (!o.ok) return [];
        const parts = [o.out.additionalContext, o.out.decision === 'block' ? o.out.reason : undefined];
        return parts.filter((p): p is string => typeof p === 'string' && p.length > 0);
      })
      .join('\n');
    return context ? { context: context.slice(0, 10_000) } : undefined;
  }

  async beforeStop(
    agent: HookAgent,
    lastText: string,
    active: boolean,
    signal: AbortSignal,
  ): Promise<{ readonly continueWith?: string } | undefined> {
    const event: HookEventName = agent.depth === 0 ? 'Stop' : 'SubagentStop';
    if (!this.has(event)) return undefined;
    const present = this.turn ? (v: unknown) => this.turn!.present(v) : (v: unknown) => v;
    const input = {
      ...this.#base(event, agent),
      stop_hook_active: active,
      last_assistant_message: present(lastText),
      ...(event === 'SubagentStop' ? { agent_transcript_path: '' } : {}),
    };
    const outcomes = await this.#call(event, input, undefined, undefined, signal);
    if (this.#stopIfAsked(outcomes)) return undefined;
    // Only a hook that answered `block` with a reason keeps the agent going; a failure stops it.
    const reasons = outcomes.flatMap((o) =>
      o.ok && o.out.decision === 'block' && o.out.reason ? [o.out.reason] : [],
    );
    return reasons.length > 0 ? { continueWith: reasons.join('\n').slice(0, 10_000) } : undefined;
  }

  async subagentStart(
    agent: HookAgent,
    signal: AbortSignal,
  ): Promise<{ readonly context?: string } | undefined> {
    if (!this.has('SubagentStart')) return undefined;
    const input = { ...this.#base('SubagentStart'), agent_id: agent.agentId, agent_type: agent.agentType };
    const outcomes = await this.#call('SubagentStart', input, undefined, undefined, signal);
    this.#stopIfAsked(outcomes);
    const context = outcomes
      .flatMap((o) => (o.ok && o.out.additionalContext ? [o.out.additionalContext] : []))
      .join('\n');
    return context ? { context: context.slice(0, 10_000) } : undefined;
  }

  /**
   * UserPromptSubmit: `block` means the prompt is not run (the reason is the turn's error); so
   * does a hook that fails. `context` goes to the model after the prompt.
   */
  async promptSubmitted(prompt: string, signal: AbortSignal): Promise<{ block?: string; context?: string }> {
    if (!this.has('UserPromptSubmit')) return {};
    const input = { ...this.#base('UserPromptSubmit'), prompt, source: 'sdk' };
    const outcomes = await this.#call('UserPromptSubmit', input, undefined, undefined, signal);
    const failed = outcomes.find((o): o is Extract<Outcome, { ok: false }> => !o.ok);
    if (failed)
      return {
        block: `The host's UserPromptSubmit hook did not answer (${failed.why}); the prompt was not run.`,
      };
    for (const o of outcomes) {
      if (o.ok && (o.out.decision === 'block' || o.out.continue === false)) {
        return {
          block: o.out.reason || o.out.stopReason || "The host's UserPromptSubmit hook blocked the prompt.",
        };
      }
    }
    const context = outcomes
      .flatMap((o) => (o.ok && o.out.additionalContext ? [o.out.additionalContext] : []))
      .join('\n');
    return context ? { context: context.slice(0, 10_000) } : {};
  }
}
