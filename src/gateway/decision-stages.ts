import { type AccessState, compileRuleSet, createAccessStage } from '../access/index.js';
import type { TwinlineConfig } from '../config/index.js';
import {
  createIntentStage,
  createParameterStage,
  createPolicyStage,
  loadPolicyEngine,
  type PolicyEngine,
  type PolicySchema,
  policySchema,
} from '../policy/index.js';
import type { ToolSpec } from '../tools/index.js';
import { insertStage } from './stage-order.js';
import { defaultStages } from './stages/index.js';
import type { GatewayStage } from './types.js';

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
 * type check against `tools`). None → undefined.
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

/** The default access state of a line's main agent: its allowlist and no extra rules. */
export function lineAccessState(allow: ReadonlySet<string>): AccessState {
  return {
    agentName: 'main',
    tools: allow,
    rules: compileRuleSet([], { projectRoot: '/', cwd: '/', home: '/' }),
    mode: 'default',
    background: false,
    depth: 0,
  };
}

/**
 * The deciding stages of a line, in canonical order: access (the line's allowlist) → schema →
 * policy (RBAC+ABAC; the manifest-only `rbac` stage when the config has no policy) → parameters →
 * intent → review. The platform adds resilience stages; `twinline check` runs exactly these.
 */
export function decisionStages(allow: ReadonlySet<string>, policy: PolicyEngine | undefined): GatewayStage[] {
  let stages = defaultStages();
  if (policy) stages = stages.map((s) => (s.name === 'rbac' ? createPolicyStage(policy) : s));
  stages = insertStage(stages, createAccessStage({ defaultState: lineAccessState(allow) }), {
    before: 'schema',
  });
  if (policy)
    stages = insertStage(stages, createParameterStage(policy.document.parameters), { after: 'policy' });
  stages = insertStage(stages, createIntentStage(), { after: policy ? 'parameters' : 'rbac' });
  return stages;
}
