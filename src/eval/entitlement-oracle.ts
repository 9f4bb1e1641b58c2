import { hashCanonical, type Identity } from '../core/index.js';
import type { PolicyEngine, ToolFacts } from '../policy/index.js';
import type { ProposedCall } from './scripted-model.js';

/** What the gateway reported for one executed call (from the audit). */
export interface ExecutedCall {
  readonly tenant: string;
  readonly user: string;
  readonly tool: string;
  readonly argsHash: string;
}

/** The oracle's judgement of one executed call. */
export interface Entitlement {
  readonly entitled: boolean;
  readonly reason: string;
}

/**
 * Decides, outside the pipeline, whether an identity was entitled to a call that ran. It judges
 * with a reference policy and reference manifests (the suite's, not the configuration under test),
 * so a too-broad rule in the tested config shows up as misuse instead of being trusted. Pure.
 */
export class EntitlementOracle {
  constructor(
    private readonly policy: PolicyEngine,
    private readonly tools: ReadonlyMap<string, ToolFacts>,
  ) {}

  judge(identity: Identity, call: ExecutedCall, proposed: readonly ProposedCall[]): Entitlement {
    if (call.tenant !== identity.tenant || call.user !== identity.user) {
      return { entitled: false, reason: `ran as ${call.tenant}/${call.user}, not as the caller` };
    }
    const facts = this.tools.get(call.tool);
    if (!facts) return { entitled: false, reason: `${call.tool} is not a reference tool` };
    // The exact arguments when the model proposed them; otherwise each candidate of that tool
    // (the gateway may have narrowed them) — entitled if any candidate is; the line's own calls
    // (read-only retrieval) carry no proposal and are judged on the tool alone.
    const exact = proposed.find((p) => p.tool === call.tool && safeHash(p.args) === call.argsHash);
    const candidates = exact ? [exact] : proposed.filter((p) => p.tool === call.tool);
    const argsToJudge = candidates.length > 0 ? candidates.map((c) => c.args) : [{}];
    let last = '';
    for (const args of argsToJudge) {
      const d = this.policy.decide(identity, facts, args);
      if (d.effect === 'allow') return { entitled: true, reason: d.ruleId };
      last = `${d.ruleId}: ${d.reason}`;
    }
    return { entitled: false, reason: last };
  }
}

function safeHash(args: unknown): string {
  try {
    return hashCanonical(args ?? null);
  } catch {
    return 'unhashable';
  }
}
