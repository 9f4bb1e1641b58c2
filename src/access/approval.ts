import { decide, type StageDecision } from '../core/index.js';
import type { CallContext, GatewayStage, PreparedCall } from '../gateway/index.js';
import type { PermissionSubject, RiskLevel, ToolKind, ToolSpec } from '../tools/index.js';
import { accessStateOf } from './access-state.js';
import type { ApprovalMode } from './approval-mode.js';
import { MODE_TABLE, type ModeCell, planBlocks } from './approval-table.js';
import { bridgeTargetOf } from './bridge-target.js';
import { ENGINE_STATE_RULE_ID, ENGINE_STATE_SHELL_RULE, engineStateDenial } from './engine-state-guard.js';
import { type PathRoots, targetPathOf } from './path-pattern.js';
import { type CompiledRuleSet, evaluateRules, type RuleEvaluation } from './rule-set.js';
import { networkAllowanceOf, withShellSandbox } from './sandbox-grant.js';
import { toolKindOf } from './tool-names.js';

export const APPROVAL_STAGE = 'approval';

/** Everything the mode decision needs about one call. */
export interface ApprovalInput {
  readonly tool: string;
  readonly kind: ToolKind;
  readonly mode: ApprovalMode;
  readonly rule: RuleEvaluation;
  /** Read-only: the manifest's annotation, or the shell analysis for `shell`. */
  readonly readOnly: boolean;
  readonly destructive?: boolean;
  readonly riskLevel?: RiskLevel;
  /** Edits: the target is inside the project and not a protected path. */
  readonly safeEditTarget?: boolean;
  /** Reads: the target is inside the project root (absent → treated as inside). */
  readonly insideProject?: boolean;
  /** Background agents cannot prompt; an `ask` becomes a denial unless the mode is `bubble`. */
  readonly background?: boolean;
}

/**
 * The approval decision for one call, pure. Rules first (deny, ask — in every mode — then
 * allow unless plan mode blocks the call), then the mode table; a background `ask` outside
 * `bubble` is denied with a reason, never left waiting.
 */
export function decideApproval(input: ApprovalInput): StageDecision {
  const d = decideMode(input);
  if (d.verdict === 'ask' && input.background && input.mode !== 'bubble') {
    return decide(
      'deny',
      APPROVAL_STAGE,
      'approval.background-no-prompt',
      `Tool ${input.tool} requires approval, but a background agent cannot prompt; the call was denied.`,
      { details: { wouldAsk: d.ruleId } },
    );
  }
  return d;
}

function decideMode(input: ApprovalInput): StageDecision {
  const { rule, mode, tool } = input;
  if (rule.effect === 'deny') {
    return decide('deny', APPROVAL_STAGE, 'permission.deny', `Denied by permission rule ${rule.rule!.text}.`);
  }
  if (rule.effect === 'ask' && rule.rule === ENGINE_STATE_SHELL_RULE) {
    return decide(
      'ask',
      APPROVAL_STAGE,
      `${ENGINE_STATE_RULE_ID}.shell`,
      `The command names the engine's own state (settings, trust, audit database): ${tool} asks first in every mode.`,
    );
  }
  if (rule.effect === 'ask') {
    return decide(
      'ask',
      APPROVAL_STAGE,
      'permission.ask',
      `Permission rule ${rule.rule!.text} asks before ${tool}.`,
    );
  }
  const cell = MODE_TABLE[input.kind][mode];
  if (mode === 'plan' && planBlocks(cell, input.readOnly)) {
    return decide(
      'deny',
      APPROVAL_STAGE,
      'mode.plan-blocked',
      `Plan mode does not run ${tool}: it changes state.`,
    );
  }
  if (rule.effect === 'allow') {
    return decide(
      'allow',
      APPROVAL_STAGE,
      'permission.allow',
      `Allowed by permission rule ${rule.rule!.text}.`,
    );
  }
  const verdict = cellVerdict(cell, input);
  const why =
    verdict === 'allow'
      ? `${mode} mode runs ${input.kind} tools like ${tool}`
      : verdict === 'ask'
        ? `${mode} mode asks before ${tool}`
        : `${mode} mode refuses ${tool}`;
  return decide(verdict, APPROVAL_STAGE, `mode.${mode}.${input.kind}`, `${why}.`, { details: { cell } });
}

function cellVerdict(cell: ModeCell, input: ApprovalInput): 'allow' | 'ask' | 'deny' {
  switch (cell) {
    case 'allow':
    case 'ask':
    case 'deny':
      return cell;
    case 'read-only-allow|ask':
      return input.readOnly ? 'allow' : 'ask';
    case 'read-only-allow|deny':
      return input.readOnly ? 'allow' : 'deny';
    case 'read-only-ask|deny':
      return input.readOnly ? 'ask' : 'deny';
    case 'auto-edit-check':
      return input.safeEditTarget ? 'allow' : 'ask';
    case 'auto-shell-check':
      return input.readOnly ? 'allow' : input.destructive ? 'deny' : 'ask';
    case 'in-project-allow|ask':
      return input.insideProject === false ? 'ask' : 'allow';
    case 'auto-low-risk|ask':
      if (input.destructive) return 'ask';
      return input.readOnly || input.riskLevel === 'low' ? 'allow' : 'ask';
  }
}

/** Paths auto mode never edits without asking, relative to the project root. */
const PROTECTED_PATH =
  /(^|\/)(\.git|\.twinline|\.vscode|\.idea|node_modules)(\/|$)|(^|\/)(\.env[^/]*|package\.json|package-lock\.json|\.npmrc|Makefile|\.bashrc|\.zshrc|\.profile)$/;

/** True when `absPath` is the project root or below it. */
export function isInside(absPath: string, projectRoot: string): boolean {
  const root = projectRoot.endsWith('/') ? projectRoot.slice(0, -1) : projectRoot;
  return absPath === root || absPath.startsWith(`${root}/`) || root === '';
}

/** True when an edit targets a path inside the project root that is not protected. */
export function isSafeEditTarget(absPath: string, roots: PathRoots): boolean {
  const root = roots.projectRoot.endsWith('/') ? roots.projectRoot : `${roots.projectRoot}/`;
  if (!absPath.startsWith(root)) return false;
  return !PROTECTED_PATH.test(absPath.slice(root.length));
}

export interface ApprovalStageOptions {
  /** Looks up a manifest by name (for `tool_call` targets, whose manifest the call does not carry). */
  readonly resolveTool?: (name: string) => ToolSpec | undefined;
  /** Mode when the call carries no access state (falls back to `ctx.approvalMode`, then `default`). */
  readonly defaultMode?: ApprovalMode;
}

/**
 * The gateway's `approval` stage: allow / ask / deny from the agent's mode and the permission
 * rules. `tool_call` is judged as its target, so the bridge never launders an edit or a command.
 */
export function createApprovalStage(options: ApprovalStageOptions = {}): GatewayStage {
  return {
    name: APPROVAL_STAGE,
    evaluate(call: PreparedCall, ctx: CallContext): StageDecision {
      const state = accessStateOf(ctx);
      let name = call.call.name;
      let args = call.args;
      let spec: ToolSpec | undefined = call.tool;
      if (name === 'tool_call') {
        const target = bridgeTargetOf(args);
        name = target.name ?? 'tool_call';
        args = target.args;
        spec = options.resolveTool?.(name);
      }
      const mode =
        state?.mode ?? (ctx.approvalMode as ApprovalMode | undefined) ?? options.defaultMode ?? 'default';
      if (!state) {
        // Without rules the mode alone decides; fail towards asking.
        const kind = toolKindOf(name, spec?.kind);
        const d = decideApproval({
          tool: name,
          kind,
          mode,
          rule: { effect: 'none' },
          readOnly: spec?.annotations.readOnly === true && kind !== 'shell',
          background: ctx.agent?.background === true,
        });
        if (kind !== 'shell') return d;
        return withShellSandbox(d, {
          mode,
          readOnly: false,
          sandboxed: isSandboxed(spec),
          background: ctx.agent?.background === true,
          network: { allowed: [], denied: [] },
        });
      }
      return approvalFor(state, name, args, spec, ctx.agent?.background === true);
    },
  };
}

/**
 * The approval decision for one call from the agent's state (pure; used by the stage and `check`).
 * `subject` is what the permission rules match: the manifest's, unless the caller names it.
 */
export function approvalFor(
  state: { readonly rules: CompiledRuleSet; readonly mode: ApprovalMode; readonly background: boolean },
  name: string,
  args: unknown,
  spec:
    | (Pick<ToolSpec, 'kind' | 'annotations' | 'riskLevel'> &
        Pick<Partial<ToolSpec>, 'sandbox' | 'permissionSubject'>)
    | undefined,
  backgroundCaller = false,
  subject: PermissionSubject | undefined = spec?.permissionSubject?.(args),
): StageDecision {
  const kind = toolKindOf(name, spec?.kind);
  // First, in every mode: engine state is never written (a manifest's own kind `edit` counts).
  const guarded = engineStateDenial(name, kind, args, state.rules.roots, APPROVAL_STAGE);
  if (guarded) return guarded;
  const rule = evaluateRules(state.rules, name, args, subject);
  const readOnly = kind === 'shell' ? (rule.shell?.readOnly ?? false) : spec?.annotations.readOnly === true;
  const destructive =
    kind === 'shell' ? (rule.shell?.destructive ?? false) : spec?.annotations.destructive === true;
  const background = state.background || backgroundCaller;
  const d = decideApproval({
    tool: name,
    kind,
    mode: state.mode,
    rule,
    readOnly: kind === 'read' ? true : readOnly,
    destructive,
    ...(spec?.riskLevel !== undefined ? { riskLevel: spec.riskLevel } : {}),
    ...(kind === 'edit'
      ? { safeEditTarget: isSafeEditTarget(targetPathOf(args, state.rules.roots), state.rules.roots) }
      : {}),
    ...(kind === 'read'
      ? { insideProject: isInside(targetPathOf(args, state.rules.roots), state.rules.roots.projectRoot) }
      : {}),
    background,
  });
  if (kind !== 'shell') return d;
  return withShellSandbox(d, {
    mode: state.mode,
    readOnly,
    sandboxed: isSandboxed(spec),
    background,
    network: networkAllowanceOf(state.rules),
  });
}

/**
 * Whether a shell-kind tool's processes are confined: its manifest declares a sandbox that can be
 * created here. A call judged without a manifest (a bare rule check) is taken as confined; a
 * manifest without a sandbox is not — its commands would run with the engine's full access.
 */
function isSandboxed(spec: Pick<Partial<ToolSpec>, 'sandbox'> | undefined): boolean {
  if (spec === undefined) return true;
  return spec.sandbox?.available() === true;
}
