import type { CallContext } from '../gateway/index.js';
import type { ApprovalMode } from './approval-mode.js';
import type { CompiledRuleSet } from './rule-set.js';

/** How a call reached the gateway: directly, through the deferred bridge, or from code-mode `exec`. */
export type CallRoute = 'direct' | 'tool_call' | 'exec';

/**
 * Per-agent access state. The runtime builds it (see `buildAccessContext`) from data the model
 * cannot write, and hands it to the gateway in `ctx.extensions.access` on every call; the
 * `access` and `approval` stages read it from there.
 */
export interface AccessState {
  /** Definition name, or `main` for the main agent. */
  readonly agentName: string;
  /** Tools this agent may see and call. */
  readonly tools: ReadonlySet<string>;
  /** Settings rules plus the agent's scoped denies. */
  readonly rules: CompiledRuleSet;
  readonly mode: ApprovalMode;
  /** A background agent cannot prompt: its `ask` verdicts become denials unless mode is `bubble`. */
  readonly background: boolean;
  readonly depth: number;
  /** Sub-agent types this agent may start (absent = any). */
  readonly allowedAgentTypes?: readonly string[];
  /** Set by the runtime for calls coming through `tool_call` or `exec`. */
  readonly route?: CallRoute;
}

/** The key under `ctx.extensions` that carries {@link AccessState}. */
export const ACCESS_EXTENSION_KEY = 'access';

/** The access state a call carries, if any. */
export function accessStateOf(ctx: Pick<CallContext, 'extensions'>): AccessState | undefined {
  const v = ctx.extensions?.[ACCESS_EXTENSION_KEY];
  return v && typeof v === 'object' && 'tools' in v ? (v as AccessState) : undefined;
}

/** A copy of `ctx` whose access state says the call came by `route` (for nested exec/bridge calls). */
export function withCallRoute<C extends CallContext>(ctx: C, route: CallRoute): C {
  const state = accessStateOf(ctx);
  if (!state) return ctx;
  return { ...ctx, extensions: { ...ctx.extensions, [ACCESS_EXTENSION_KEY]: { ...state, route } } };
}

/** Tools code-mode `exec` scripts may not call: they drive the loop or need a person. */
export const DIRECT_ONLY_TOOLS: ReadonlySet<string> = new Set([
  'agent',
  'ask_user',
  'enter_plan_mode',
  'exit_plan_mode',
  'send_message',
  'tool_call',
  'tool_search',
  'exec',
]);

/** The names code-mode `exec` may bind for this agent. */
export function execCallableTools(state: Pick<AccessState, 'tools'>): string[] {
  return [...state.tools].filter((n) => !DIRECT_ONLY_TOOLS.has(n));
}
