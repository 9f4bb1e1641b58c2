import { type AccessState, compileRuleSet, createAccessStage } from '../access/index.js';
import type { TwinlineConfig } from '../config/index.js';
import {
  createIntentStage,
  createParameterStage,
  createPolicyStage,
  loadPolicyFile,
  PolicyEngine,
} from '../policy/index.js';
import { insertStage } from './stage-order.js';
import { defaultStages } from './stages/index.js';
import type { GatewayStage } from './types.js';

/** The policy of a configuration: its policy files merged into one engine (none → undefined). */
export function loadConfigPolicy(config: TwinlineConfig): PolicyEngine | undefined {
  const docs = config.policyDocuments ?? config.policies.map((f) => loadPolicyFile(f));
  if (docs.length === 0) return undefined;
  if (docs.length === 1) return new PolicyEngine(docs[0]!);
  return new PolicyEngine({
    rules: docs.flatMap((d) => d.rules),
    parameters: {
      tools: Object.assign({}, ...docs.map((d) => d.parameters.tools)),
      thirdParty: docs[docs.length - 1]!.parameters.thirdParty,
    },
  });
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
