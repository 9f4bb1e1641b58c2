import type { GatewayStage, ToolLookup } from '../gateway/index.js';
import type { AccessContext } from './access-context.js';
import { buildAccessContext } from './access-context.js';
import { createAccessStage } from './access-stage.js';
import { createApprovalStage } from './approval.js';
import {
  type AccessEnvironment,
  type AccessEnvironmentOptions,
  loadAccessEnvironment,
} from './environment-loader.js';

export interface AgentCheckOptions extends AccessEnvironmentOptions {
  /** Registered tool names (e.g. the runtime registry's). */
  readonly available: readonly string[];
  /** `--agent NAME`; absent → the main agent. */
  readonly agentName?: string;
  /** Manifests by name, so the approval stage can judge `tool_call` targets. */
  readonly tools?: ToolLookup;
}

export interface AgentCheck extends AccessContext {
  readonly environment: AccessEnvironment;
  /** Gateway stages to place in the `access` and `approval` slots (see `insertStage`). */
  readonly stages: { readonly access: GatewayStage; readonly approval: GatewayStage };
}

/**
 * Everything `twinline check --agent NAME` needs: reads the folder's definitions, settings and
 * trust, builds the agent's access state, and returns the two stages. Spread `extensions` into
 * the CallContext and set `approvalMode: state.mode`. Throws ConfigError for an unknown agent.
 */
export function prepareAgentCheck(options: AgentCheckOptions): AgentCheck {
  const environment = loadAccessEnvironment(options);
  const ctx = buildAccessContext({
    available: options.available,
    settings: environment.settings,
    roots: environment.roots,
    trusted: environment.trusted,
    rules: environment.rules,
    definitions: environment.definitions,
    ...(options.agentName !== undefined ? { agentName: options.agentName } : {}),
  });
  const tools = options.tools;
  return {
    ...ctx,
    environment,
    stages: {
      access: createAccessStage(),
      approval: createApprovalStage(tools ? { resolveTool: (n) => tools.get(n) } : {}),
    },
  };
}
