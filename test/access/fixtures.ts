import {
  type AccessState,
  type AgentDefinition,
  type ApprovalMode,
  approvalFor,
  BUILTIN_TOOL_NAMES,
  type CompiledRuleSet,
  checkAccess,
  compileRuleSet,
  evaluateRules,
  extendRuleSet,
  type PathRoots,
  parseAgentDefinition,
  type ResolveAgentToolsInput,
  type ResolvedAgentTools,
  type RuleSource,
  resolveAgentTools,
} from '../../src/access/index.js';
import { createControlTools } from '../../src/agent/index.js';
import type { PermissionSubject, StageDecision, ToolSpec } from '../../src/core/index.js';
import { createWorkspaceTools } from '../../src/tools/workspace/index.js';

/** The shipped manifests by name: each names the permission subject of its calls. */
export const BUILTIN_SPECS: ReadonlyMap<string, ToolSpec> = new Map(
  [...createWorkspaceTools(), ...createControlTools({ allowedRoles: ['developer'] })].map((s) => [s.name, s]),
);

/** The shipped manifest of a tool, if there is one (a resolver for `checkAccess`). */
export const builtinSpec = (name: string): ToolSpec | undefined => BUILTIN_SPECS.get(name);

/** What the permission rules match for a call, as the shipped manifest of `tool` names it. */
export function subjectOf(tool: string, args: unknown): PermissionSubject | undefined {
  return builtinSpec(tool)?.permissionSubject?.(args);
}

export const ROOTS: PathRoots = { projectRoot: '/proj', cwd: '/proj', home: '/home/u' };

/** A definition file body from frontmatter lines. */
export function defFile(front: string, body = 'You are a careful helper agent.'): string {
  return `---\n${front}\n---\n${body}\n`;
}

export function parseDef(front: string, body?: string): AgentDefinition {
  return parseAgentDefinition(defFile(front, body), '/proj/.twinline/agents/x.md', 'project');
}

export function rules(src: Omit<RuleSource, 'source'>, roots: PathRoots = ROOTS): CompiledRuleSet {
  return compileRuleSet([{ source: 'test', ...src }], roots);
}

export function ruleEffect(src: Omit<RuleSource, 'source'>, tool: string, args: unknown): string {
  return evaluateRules(rules(src), tool, args, subjectOf(tool, args)).effect;
}

/** The main agent's resolution over some tools. */
export function mainOf(available: readonly string[], ruleSet?: CompiledRuleSet): ResolvedAgentTools {
  return resolveAgentTools({ available, ...(ruleSet ? { rules: ruleSet } : {}) });
}

/** A sub-agent's resolved tool names (sorted) under a main agent over `available`. */
export function subTools(
  available: readonly string[],
  input: Partial<ResolveAgentToolsInput> = {},
): { names: string[]; res: ResolvedAgentTools } {
  const parent = input.parent ?? mainOf(available, input.rules);
  const res = resolveAgentTools({ available, parent, position: { depth: 1 }, ...input });
  return { names: [...res.allowed].sort(), res };
}

export const ALL_BUILTINS = BUILTIN_TOOL_NAMES;

/** An access state for a sub-agent built from a definition. */
export function stateFor(
  available: readonly string[],
  def: Partial<AgentDefinition> = {},
  opts: {
    mode?: ApprovalMode;
    background?: boolean;
    depth?: number;
    ruleSet?: CompiledRuleSet;
    route?: AccessState['route'];
  } = {},
): AccessState {
  const base = opts.ruleSet ?? rules({});
  const res = resolveAgentTools({
    available,
    parent: mainOf(available, base),
    position: { depth: opts.depth ?? 1, background: opts.background ?? false },
    definition: { name: 'x', ...def },
    rules: base,
  });
  return {
    agentName: 'x',
    tools: res.allowed,
    rules: extendRuleSet(base, [{ source: 'agent', deny: res.scopedDenyRules }]),
    mode: opts.mode ?? 'default',
    background: opts.background ?? false,
    depth: res.depth,
    ...(res.allowedAgentTypes ? { allowedAgentTypes: res.allowedAgentTypes } : {}),
    ...(opts.route ? { route: opts.route } : {}),
  };
}

export function access(state: AccessState, name: string, args: unknown = {}): StageDecision {
  return checkAccess(state, name, args, builtinSpec);
}

/**
 * The approval verdict for a call in a mode (manifest-less: kind from the name; the permission
 * subject from the shipped manifest of that name).
 */
export function approve(
  mode: ApprovalMode,
  name: string,
  args: unknown,
  src: Omit<RuleSource, 'source'> = {},
  spec?: Parameters<typeof approvalFor>[3],
  background = false,
): StageDecision {
  return approvalFor(
    { rules: rules(src), mode, background },
    name,
    args,
    spec,
    false,
    (spec ?? builtinSpec(name))?.permissionSubject?.(args),
  );
}
