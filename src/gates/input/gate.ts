import { decide, type StageDecision } from '../../core/index.js';
import type { CallContext, GatewayStage, PreparedCall } from '../../gateway/index.js';
import type { Channel } from './combine.js';
import { createGuardClient, type GuardClient, type GuardConfig } from './guard/guard-client.js';
import { type GuardedScanResult, scanWithGuard } from './guard/guarded-scan.js';
import { type ScanResult, scanText } from './scan.js';
import type { Thresholds } from './verdict.js';

export interface InputGateConfig {
  readonly thresholds?: Partial<Record<Channel, Thresholds>>;
  /**
   * What a `block` scan becomes. Default `review`: the seed's filter routes flagged input to a
   * person rather than trying to be the last line of defence; set `deny` to refuse outright.
   */
  readonly blockAs?: 'review' | 'deny';
  /**
   * An optional guard model (OpenAI-compatible endpoint) consulted by `checkWithGuard`; off
   * unless set. Its failure leaves the embedded scorer's decision (docs/gates.md).
   */
  readonly guard?: GuardConfig | GuardClient;
}

/** The input gate: a GatewayStage (named `input`) plus a direct check for text before routing. */
export interface InputGate extends GatewayStage {
  /** Checks text before it is routed to an agent. Non-allow keeps it off the automatic path. */
  check(text: string, channel?: Channel): StageDecision & { readonly scan: ScanResult };
  /** `check` plus the guard model when one is configured (otherwise the same as `check`). */
  checkWithGuard(
    text: string,
    channel?: Channel,
  ): Promise<StageDecision & { readonly scan: ScanResult | GuardedScanResult }>;
}

function stringsIn(v: unknown, out: string[], depth = 0): string[] {
  if (depth > 32) return out;
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) stringsIn(x, out, depth + 1);
  else if (v !== null && typeof v === 'object')
    for (const x of Object.values(v)) stringsIn(x, out, depth + 1);
  return out;
}

/**
 * Creates the input gate. `check(text)` is what the runtime calls on user input before routing;
 * as a stage, `evaluate` scans every string in a call's arguments (channel `user_input`).
 */
export function createInputGate(config: InputGateConfig = {}): InputGate {
  const decideFor = (scan: ScanResult, what: string): StageDecision => {
    if (scan.verdict === 'pass')
      return decide('allow', 'input', 'input.clean', `${what}: no injection signals`, {
        details: { score: scan.score },
      });
    const top = [...scan.findings].sort((a, b) => b.score - a.score).slice(0, 3);
    const reason = `${what}: possible prompt injection (score ${scan.score}): ${top.map((f) => f.reason).join('; ')}`;
    const verdict = scan.verdict === 'block' && config.blockAs === 'deny' ? 'deny' : 'review';
    return decide(verdict, 'input', `input.${scan.verdict}`, reason, {
      details: { score: scan.score, scanVerdict: scan.verdict, findings: scan.findings },
    });
  };
  const guard =
    config.guard === undefined
      ? undefined
      : 'score' in config.guard
        ? config.guard
        : createGuardClient(config.guard);
  return {
    name: 'input',
    async checkWithGuard(text: string, channel: Channel = 'user_input') {
      if (!guard) return this.check(text, channel);
      const scan = await scanWithGuard(
        text,
        guard,
        config.thresholds ? { channel, thresholds: config.thresholds } : { channel },
      );
      return { ...decideFor(scan, 'input'), scan };
    },
    check(text: string, channel: Channel = 'user_input') {
      const scan = scanText(
        text,
        config.thresholds ? { channel, thresholds: config.thresholds } : { channel },
      );
      return { ...decideFor(scan, 'input'), scan };
    },
    evaluate(call: PreparedCall, _ctx: CallContext): StageDecision {
      const text = stringsIn(call.args, []).join('\n');
      const scan = scanText(
        text,
        config.thresholds
          ? { channel: 'user_input', thresholds: config.thresholds }
          : { channel: 'user_input' },
      );
      return decideFor(scan, `arguments of ${call.tool.name}`);
    },
  };
}
