import type { AccessContext } from './access-context.js';
import { buildAccessContext } from './access-context.js';
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
}

export interface AgentCheck extends AccessContext {
  readonly environment: AccessEnvironment;
}

/**
 * Everything `twinline check --agent NAME` needs: reads the folder's definitions, settings and
 * trust, and builds the agent's access state for the pipeline's access and approval slots. Spread
 * `extensions` into the CallContext and set `approvalMode: state.mode`. Throws ConfigError for an
 * unknown agent.
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
  return { ...ctx, environment };
}
