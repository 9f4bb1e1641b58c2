import { decide, type StageDecision } from '../../core/index.js';
import type { CallContext, GatewayStage, PreparedCall, ToolHookAnswer, ToolHooks } from '../types.js';

export const HOOK_STAGE = 'hooks';

const NO_HOOK: StageDecision = Object.freeze(
  decide('allow', HOOK_STAGE, 'hook.none', 'no hook of the host objected'),
);

/**
 * The decision a hook's answer stands for, pure. A hook can only make the call stricter: `deny`
 * ends it, `ask` puts it to the approver even where the mode would run it, and `allow` is no
 * objection (the approval slot after it still decides). Edited arguments are a new call: the
 * gateway decides them again from the first slot (`reenter`), standing here on allow or ask.
 */
export function hookDecision(answer: ToolHookAnswer | undefined, tool: string): StageDecision {
  if (!answer) return NO_HOOK;
  const why = answer.reason ? `: ${answer.reason}` : '';
  if (answer.verdict === 'deny') {
    return decide('deny', HOOK_STAGE, 'hook.deny', `A hook of the host refused ${tool}${why}`);
  }
  const then =
    answer.verdict === 'ask'
      ? decide('ask', HOOK_STAGE, 'hook.ask', `A hook of the host asks before ${tool}${why}`)
      : decide('allow', HOOK_STAGE, 'hook.allow', `No hook of the host objected to ${tool}${why}`);
  if (answer.updatedArgs === undefined) return then;
  return {
    ...decide('allow', HOOK_STAGE, 'hook.edited-input', `A hook of the host edited the input of ${tool}`),
    updatedArgs: answer.updatedArgs,
    reenter: then,
  };
}

/** The `hooks` slot: asks the host's PreToolUse hooks about the call. */
export function createHookStage(hooks: ToolHooks): GatewayStage {
  return {
    name: HOOK_STAGE,
    async evaluate(call: PreparedCall, ctx: CallContext): Promise<StageDecision> {
      return hookDecision(await hooks.beforeCall(call, ctx), call.tool.name);
    },
  };
}
