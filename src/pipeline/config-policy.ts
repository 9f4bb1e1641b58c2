import type { TwinlineConfig } from '../config/index.js';
import { loadPolicyFile, mergePolicyDocuments, PolicyEngine } from '../policy/index.js';

/**
 * The policy of a configuration: its policy files merged into one engine by the one strict merge
 * every door uses (duplicate rule ids refused, parameter constraints merged per argument); none →
 * undefined.
 */
export function loadConfigPolicy(config: TwinlineConfig): PolicyEngine | undefined {
  const docs = config.policyDocuments ?? config.policies.map((f) => loadPolicyFile(f));
  if (docs.length === 0) return undefined;
  return new PolicyEngine(docs.length === 1 ? docs[0]! : mergePolicyDocuments(docs));
}
