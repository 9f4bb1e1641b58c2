import { PolicyConfigError } from './errors.js';
import type { PolicyDocument } from './types.js';

/**
 * Several policy documents as one: rules concatenated in order (ids must stay unique across
 * files), parameter constraints merged per tool and argument (later files win).
 */
export function mergePolicyDocuments(docs: readonly PolicyDocument[]): PolicyDocument {
  const seen = new Map<string, string | undefined>();
  for (const d of docs) {
    for (const r of d.rules) {
      if (seen.has(r.id) && !r.id.startsWith('grant.')) {
        throw new PolicyConfigError(
          { file: r.source ?? '(policy)', rule: r.id, field: 'id' },
          `duplicate rule id, also declared in ${seen.get(r.id) ?? 'another file'}`,
        );
      }
      seen.set(r.id, r.source);
    }
  }
  const tools: Record<string, Record<string, unknown>> = {};
  for (const d of docs) {
    for (const [tool, args] of Object.entries(d.parameters.tools)) tools[tool] = { ...tools[tool], ...args };
  }
  const last = docs[docs.length - 1];
  return {
    rules: docs.flatMap((d) => d.rules),
    parameters: {
      tools: tools as PolicyDocument['parameters']['tools'],
      thirdParty: last ? last.parameters.thirdParty : { minRisk: 'high', minRun: 16 },
    },
  };
}
