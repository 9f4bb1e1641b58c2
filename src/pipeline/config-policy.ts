import type { TwinlineConfig } from '../config/index.js';
import { loadPolicyEngine, type PolicyEngine, type PolicySchema, policySchema } from '../policy/index.js';
import type { ToolSpec } from '../tools/index.js';

/**
 * What a configuration's policy files may refer to: its tools (argument types from their input
 * schemas), its user directory and its roles. Every door checks policies and reviewers against it.
 */
export function configPolicySchema(config: TwinlineConfig, tools: Iterable<ToolSpec>): PolicySchema {
  return policySchema({ tools, users: config.users, roles: Object.keys(config.roles) });
}

/**
 * The policy of a configuration: its policy files (or their build-time snapshot) through the one
 * strict load of `src/policy` (merge refusing duplicate ids and conflicting constraints, then the
 * type check against `tools`), the same for every door. None → undefined.
 */
export function loadConfigPolicy(
  config: TwinlineConfig,
  tools: Iterable<ToolSpec>,
): PolicyEngine | undefined {
  return loadPolicyEngine(
    config.policies,
    configPolicySchema(config, tools),
    config.policyDocuments ? { documents: config.policyDocuments } : {},
  );
}
