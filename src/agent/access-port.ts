import {
  ACCESS_EXTENSION_KEY,
  type AccessState,
  type ApprovalMode,
  assertInteractiveCaller,
  bubbleApprover,
  type CompiledRuleSet,
  compileRuleSet,
  extendRuleSet,
  parseApprovalMode,
  type ResolvedAgentTools,
  resolveAgentTools,
  resolveSubagentMode,
  type SubagentModePolicy,
} from '../access/index.js';
import type { AccessFrame, AccessGrant, AgentAccess, CallRoute } from './runtime-ports.js';

export interface AccessPortOptions {
  /** Compiled permission rules (settings); none → no rules. */
  readonly rules?: CompiledRuleSet;
  readonly maxDepth?: number;
  readonly modePolicy?: SubagentModePolicy;
  /** Replaces the access layer's background allowlist. */
  readonly backgroundAllowlist?: readonly string[];
}

/** What a grant carries for the access layer: its resolution and the agent's rules. */
interface GrantData {
  readonly resolution: ResolvedAgentTools;
  readonly rules: CompiledRuleSet;
}

/**
 * The runtime's view of `src/access`: tool sets from `resolveAgentTools`, modes from
 * `resolveSubagentMode`, the second caller check from `assertInteractiveCaller`, bubbled approvals
 * from `bubbleApprover`, and the per-call `AccessState` the gateway's access and approval stages read.
 */
export function createAccessPort(options: AccessPortOptions = {}): AgentAccess {
  const baseRules = options.rules ?? compileRuleSet([], { projectRoot: '/', cwd: '/', home: '/' });
  const common = {
    rules: baseRules,
    ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
    ...(options.backgroundAllowlist ? { backgroundAllowlist: options.backgroundAllowlist } : {}),
  };
  // A main agent's tool set depends only on the available names (`resolveAgentTools` is pure and
  // its result read-only): a server starting one session per request resolves it once per catalog.
  const mainGrants = new Map<string, GrantData>();
  const MAIN_GRANTS_LIMIT = 64;
  return {
    grant(frame: AccessFrame, available, trustedFolder): AccessGrant {
      const names = available.map((t) => t.name);
      const parentData = frame.parent?.data as GrantData | undefined;
      if (!frame.parent || !parentData) {
        // A live rule set (session rules) changes which tools a whole-tool deny removes.
        const key = `${baseRules.version?.() ?? 0}\u0000${names.join('\u0000')}`;
        let data = mainGrants.get(key);
        if (!data) {
          data = { resolution: resolveAgentTools({ available: names, ...common }), rules: baseRules };
          if (mainGrants.size >= MAIN_GRANTS_LIMIT) mainGrants.clear();
          mainGrants.set(key, data);
        }
        return { tools: data.resolution.allowed, approvalMode: modeOf(frame.requestedMode), data };
      }
      const definition = frame.definition;
      const resolution = resolveAgentTools({
        available: names,
        parent: parentData.resolution,
        position: { depth: frame.ref.depth, background: frame.ref.background, teammate: frame.ref.teammate },
        ...(definition
          ? {
              definition: {
                name: definition.name,
                ...(definition.tools ? { tools: definition.tools } : {}),
                ...(definition.disallowedTools ? { disallowedTools: definition.disallowedTools } : {}),
              },
            }
          : {}),
        ...common,
      });
      const rules = extendRuleSet(parentData.rules, [
        { source: `agent:${definition?.name ?? frame.ref.name}`, deny: resolution.scopedDenyRules },
      ]);
      const requested = parseApprovalMode(definition?.approvalMode);
      const approvalMode = resolveSubagentMode(
        modeOf(frame.parent.approvalMode),
        requested === undefined ? undefined : { approvalMode: requested },
        trustedFolder,
        options.modePolicy ?? 'narrow',
      );
      const data: GrantData = { resolution, rules };
      return { tools: resolution.allowed, approvalMode, data };
    },

    assertInteractiveCaller(agent, tool) {
      assertInteractiveCaller(agent ? { agent } : {}, tool);
    },

    bubbleApprover(parent, timeoutMs) {
      return bubbleApprover(parent, { timeoutMs });
    },

    callExtensions(grant, frame, approvalMode, route: CallRoute) {
      const data = grant.data as GrantData | undefined;
      const state: AccessState = {
        agentName: frame.ref.depth === 0 ? 'main' : frame.ref.name,
        tools: grant.tools,
        rules: data?.rules ?? baseRules,
        mode: modeOf(approvalMode),
        background: frame.ref.background,
        depth: frame.ref.depth,
        ...(data?.resolution.allowedAgentTypes
          ? { allowedAgentTypes: data.resolution.allowedAgentTypes }
          : {}),
        ...(route === 'direct' ? {} : { route }),
      };
      return { [ACCESS_EXTENSION_KEY]: state };
    },
  };
}

/** Unknown mode names fall back to `default` (asks for anything that is not read-only). */
function modeOf(mode: string | undefined): ApprovalMode {
  return parseApprovalMode(mode) ?? 'default';
}
