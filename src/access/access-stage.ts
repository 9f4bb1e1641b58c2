import { decide, type StageDecision, type ToolSpec, toolUnavailable } from '../core/index.js';
import type { CallContext, GatewayStage, PreparedCall } from '../gateway/index.js';
import { type AccessState, accessStateOf, DIRECT_ONLY_TOOLS } from './access-state.js';
import { bridgeTargetOf } from './bridge-target.js';
import { engineStateDenial } from './engine-state-guard.js';
import { evaluateRules } from './rule-set.js';
import { toolKindOf } from './tool-names.js';

export const ACCESS_STAGE = 'access';

export interface AccessStageOptions {
  /** Used when a call carries no access state (e.g. a CLI without agents). Absent → deny. */
  readonly defaultState?: AccessState;
  /** Looks up a manifest by name (for `tool_call` targets, whose manifest the call does not carry). */
  readonly resolveTool?: ToolResolver;
}

/** Finds the manifest of a tool by name: what names a call's permission subject. */
export type ToolResolver = (name: string) => Pick<ToolSpec, 'permissionSubject'> | undefined;

/**
 * The gateway's `access` stage: re-checks at invocation that the calling agent may use the tool
 * (whatever the model was shown), follows `tool_call` to its target, refuses loop-driving tools
 * from `exec`, enforces `agent(type)` limits, and applies permission deny rules.
 */
export function createAccessStage(options: AccessStageOptions = {}): GatewayStage {
  return {
    name: ACCESS_STAGE,
    evaluate(call: PreparedCall, ctx: CallContext): StageDecision {
      const state = accessStateOf(ctx) ?? options.defaultState;
      const name = call.call.name;
      return checkAccess(state, name, call.args, (n) => (n === name ? call.tool : options.resolveTool?.(n)));
    },
  };
}

/**
 * The access decision for one call, as a pure function of the agent's state; `resolveTool` finds
 * the manifests that name the call's permission subject (the tool's, or a `tool_call` target's).
 */
export function checkAccess(
  state: AccessState | undefined,
  name: string,
  args: unknown,
  resolveTool: ToolResolver,
): StageDecision {
  if (!state?.tools.has(name)) return toolUnavailable(name);
  if (state.route === 'exec' && DIRECT_ONLY_TOOLS.has(name)) {
    return decide(
      'deny',
      ACCESS_STAGE,
      'access.not-exec-callable',
      `Tool ${name} is not callable from exec.`,
    );
  }
  if (name === 'tool_call') {
    const target = bridgeTargetOf(args);
    if (target.name === undefined) {
      return decide(
        'deny',
        ACCESS_STAGE,
        'access.bridge-invalid',
        'tool_call needs the target tool name in "name".',
      );
    }
    if (target.name === 'tool_call' || target.name === 'tool_search' || target.name === 'exec') {
      return decide(
        'deny',
        ACCESS_STAGE,
        'access.bridge-refused',
        `tool_call cannot invoke bridge tool "${target.name}".`,
      );
    }
    return checkAccess({ ...state, route: 'tool_call' }, target.name, target.args, resolveTool);
  }
  if (name === 'agent' && state.allowedAgentTypes !== undefined) {
    const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
    const type = a.subagent_type ?? a.agent ?? a.type;
    const ok =
      typeof type === 'string' && state.allowedAgentTypes.some((t) => t.toLowerCase() === type.toLowerCase());
    if (!ok) {
      return decide(
        'deny',
        ACCESS_STAGE,
        'access.agent-type',
        `Agent type ${String(type)} is not available.`,
      );
    }
  }
  // Before any rule or mode: engine state is never written (no allow rule lifts this).
  const guarded = engineStateDenial(name, toolKindOf(name), args, state.rules.roots, ACCESS_STAGE);
  if (guarded) return guarded;
  const ev = evaluateRules(state.rules, name, args, resolveTool(name)?.permissionSubject?.(args));
  if (ev.effect === 'deny') {
    return decide('deny', ACCESS_STAGE, 'permission.deny', `Denied by permission rule ${ev.rule!.text}.`, {
      details: { rule: ev.rule!.text, ...(ev.rule!.source ? { source: ev.rule!.source } : {}) },
    });
  }
  return decide('allow', ACCESS_STAGE, 'access.allowed', `Tool ${name} is available to ${state.agentName}.`);
}
