import { ConfigError } from '../core/index.js';
import type { AccessState } from './access-state.js';
import { ACCESS_EXTENSION_KEY } from './access-state.js';
import type { ApprovalMode } from './approval-mode.js';
import type { AgentDefinition } from './definition.js';
import type { PathRoots } from './path-pattern.js';
import { type CompiledRuleSet, compileRuleSet, extendRuleSet } from './rule-set.js';
import type { EffectiveAccessSettings } from './settings.js';
import { resolveSubagentMode } from './subagent-mode.js';
import { type AgentPosition, type ResolvedAgentTools, resolveAgentTools } from './tool-set.js';

export interface BuildAccessContextInput {
  /** Names of the registered tools. */
  readonly available: readonly string[];
  readonly settings: EffectiveAccessSettings;
  readonly roots: PathRoots;
  readonly trusted: boolean;
  readonly definitions?: readonly AgentDefinition[];
  /** The sub-agent to build for (case-insensitive); absent → the main agent. */
  readonly agentName?: string;
  /** The main agent's state, when building a sub-agent of it (built on the fly otherwise). */
  readonly parent?: { readonly state: AccessState; readonly resolution: ResolvedAgentTools };
  /** Defaults to depth parent+1, background from the definition. */
  readonly position?: AgentPosition;
  /** Precompiled settings rules, to share across agents. */
  readonly rules?: CompiledRuleSet;
  /** Session mode of the main agent (defaults to the settings' mode). */
  readonly sessionMode?: ApprovalMode;
}

export interface AccessContext {
  readonly state: AccessState;
  readonly resolution: ResolvedAgentTools;
  readonly definition?: AgentDefinition;
  /** Spread into `CallContext.extensions`. */
  readonly extensions: { readonly [ACCESS_EXTENSION_KEY]: AccessState };
}

/**
 * Builds the access state for the main agent or a named sub-agent: resolves its tools, layers its
 * scoped denies over the settings rules, and resolves its mode under the settings' policy. What
 * `twinline check --agent NAME` and the runtime put in `ctx.extensions.access`.
 */
export function buildAccessContext(input: BuildAccessContextInput): AccessContext {
  const rules = input.rules ?? compileRuleSet(input.settings.ruleSources, input.roots);
  const maxDepth = input.settings.maxDepth;
  const main = (): { state: AccessState; resolution: ResolvedAgentTools } => {
    const resolution = resolveAgentTools({
      available: input.available,
      rules,
      ...(maxDepth !== undefined ? { maxDepth } : {}),
    });
    const mode = input.sessionMode ?? input.settings.approvalMode;
    return {
      resolution,
      state: { agentName: 'main', tools: resolution.allowed, rules, mode, background: false, depth: 0 },
    };
  };
  if (input.agentName === undefined) {
    const m = main();
    return { ...m, extensions: { [ACCESS_EXTENSION_KEY]: m.state } };
  }
  const wanted = input.agentName.toLowerCase();
  const definition = input.definitions?.find((d) => d.name.toLowerCase() === wanted);
  if (!definition) {
    throw new ConfigError('access.unknown-agent', `no agent definition named "${input.agentName}"`, {
      where: input.agentName,
    });
  }
  const parent = input.parent ?? main();
  const position: AgentPosition = input.position ?? {
    depth: parent.state.depth + 1,
    background: definition.background ?? false,
  };
  const resolution = resolveAgentTools({
    available: input.available,
    parent: parent.resolution,
    position,
    definition,
    rules,
    ...(maxDepth !== undefined ? { maxDepth } : {}),
  });
  const agentRules = extendRuleSet(parent.state.rules, [
    { source: definition.path ?? `agent:${definition.name}`, deny: resolution.scopedDenyRules },
  ]);
  const mode = resolveSubagentMode(parent.state.mode, definition, input.trusted, input.settings.modePolicy);
  const state: AccessState = {
    agentName: definition.name,
    tools: resolution.allowed,
    rules: agentRules,
    mode,
    background: position.background === true,
    depth: resolution.depth,
    ...(resolution.allowedAgentTypes !== undefined
      ? { allowedAgentTypes: resolution.allowedAgentTypes }
      : {}),
  };
  return { state, resolution, definition, extensions: { [ACCESS_EXTENSION_KEY]: state } };
}
