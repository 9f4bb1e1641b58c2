import { type AccessState, compileRuleSet, createAccessStage, createApprovalStage } from '../access/index.js';
import type { DataLevel, GatewayObserver } from '../core/index.js';
import { auditArgumentRedactor, createQuotingStage, createRedactionStage } from '../gates/index.js';
import {
  type AuditArguments,
  createHookStage,
  type GatewayStage,
  type ResultStage,
  type ReviewExecutionLedger,
  type ReviewQueue,
  rbacStage,
  reviewStage,
  schemaStage,
  ToolGateway,
  type ToolHooks,
  type ToolLookup,
} from '../gateway/index.js';
import { createIntentStage, createParameterStage, type PolicyEngine } from '../policy/index.js';
import {
  createBreakerStage,
  createRateLimitStage,
  type ToolBreakers,
  type UserRateLimiter,
} from '../resilience/index.js';
import type { AuditSink } from '../store/index.js';
import type { ToolSpec } from '../tools/index.js';
import { PipelineError } from './errors.js';
import { memoizeResultStage } from './memoized-result-stage.js';
import { policySlotStage } from './policy-slot.js';
import type { PipelineProfile } from './profiles.js';
import { DECISION_SLOTS, type DecisionSlot, RESULT_SLOTS, type ResultSlot, type Slot } from './slots.js';

/** The layers one configuration contributes; built once, shared by every gateway of a process. */
export interface PipelineLayers {
  /** The configuration's merged policy (`loadConfigPolicy`); absent → manifest RBAC, no parameter rules. */
  readonly policy?: PolicyEngine | undefined;
  /** Receives one record per attempted call. */
  readonly audit: AuditSink;
  /** Where `review` verdicts are queued and approved reviews claimed. */
  readonly reviews?: (ReviewQueue & Partial<ReviewExecutionLedger>) | undefined;
  readonly approvalTimeoutMs?: number | undefined;
  /** The per-user limiter of the `rate-limit` slot (profiles that switch it on). */
  readonly rateLimiter?: UserRateLimiter | undefined;
  /** The breakers of the `breaker` slot (profiles that switch it on). */
  readonly breakers?: ToolBreakers | undefined;
  /** The quick line's write-fact transform for the `fact` slot. */
  readonly factStage?: ResultStage | undefined;
  /** The host's PreToolUse hooks for the `hooks` slot (a host session; none registered → no objection). */
  readonly hooks?: ToolHooks | undefined;
  /** Sees every call of every gateway, stage by stage (src/telemetry: spans and metrics). */
  readonly observer?: GatewayObserver | undefined;
  /**
   * The data level the decision log's arguments are redacted for (`audit.dataLevel` in the config);
   * absent: the audit keeps the argument hash only.
   */
  readonly auditDataLevel?: DataLevel | undefined;
}

/** Where one gateway stands: the tools it can reach and who may call them when a call says nothing. */
export interface GatewaySite {
  /** The catalogue the gateway looks tools up in (a line's own, or the registry). */
  readonly tools: ToolLookup & { list?(): readonly ToolSpec[] };
  /**
   * Tools the access slot allows a call that carries no agent access state (a line's allowlist).
   * Absent: such a call is refused (`tool.unavailable`); agent sessions always carry their state.
   */
  readonly allow?: ReadonlySet<string>;
  /** Manifests by name, for `tool_call` targets in the approval slot; default: `tools`. */
  readonly resolveTool?: (name: string) => ToolSpec | undefined;
}

/** One slot as a gateway runs it: the stage that fills it, or why it is off. */
export type EffectiveSlot =
  | { readonly slot: Slot; readonly on: true; readonly stage: string; readonly note?: string }
  | { readonly slot: Slot; readonly on: false; readonly reason: string };

const NO_POLICY_FILES = 'the configuration has no policy files';

/**
 * The composition root of the tool pipeline (docs/architecture.md, "One boundary"): the only code
 * that knows every layer and the only place a `ToolGateway` is built. Each door asks for its
 * named profile; a slot the profile turns on is filled by its layer, one it turns off is skipped
 * with the profile's written reason, and a slot that is on but has no layer to fill it is an
 * error rather than a silent gap.
 */
export class Pipeline {
  readonly layers: PipelineLayers;
  // Shared by every gateway, so a memoised redaction is computed once per (tool, level, output).
  readonly #quote: ResultStage;
  readonly #redact: ResultStage;
  /**
   * The arguments as the decision log keeps them (redacted for `layers.auditDataLevel`), for the
   * gateways and for records written beside them (the input gate's); undefined without a level.
   */
  readonly auditArguments: ((tool: ToolSpec, args: unknown) => AuditArguments) | undefined;

  constructor(layers: PipelineLayers) {
    this.layers = layers;
    this.#quote = createQuotingStage();
    this.#redact = memoizeResultStage(createRedactionStage());
    this.auditArguments = layers.auditDataLevel
      ? auditArgumentRedactor({ level: layers.auditDataLevel })
      : undefined;
  }

  /** A gateway for `profile` at `site`. `dryRun` builds one that may only `check`. */
  gateway(profile: PipelineProfile, site: GatewaySite, options: { dryRun?: boolean } = {}): ToolGateway {
    const stages: GatewayStage[] = [];
    for (const slot of DECISION_SLOTS) {
      if (!profile.slots[slot].on) continue;
      const stage = this.#decisionStage(slot, site, profile);
      if (stage) stages.push(stage);
    }
    const resultStages: ResultStage[] = [];
    for (const slot of RESULT_SLOTS) {
      if (profile.slots[slot].on) resultStages.push(this.#resultStage(slot, profile));
    }
    const { layers } = this;
    return new ToolGateway({
      tools: site.tools,
      audit: layers.audit,
      stages,
      resultStages,
      ...(options.dryRun ? { dryRunOnly: true } : {}),
      ...(layers.reviews ? { reviews: layers.reviews } : {}),
      ...(layers.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: layers.approvalTimeoutMs } : {}),
      ...(layers.observer ? { observer: layers.observer } : {}),
      ...(this.auditArguments ? { auditArgs: this.auditArguments } : {}),
    });
  }

  /** Every slot of `profile` as this pipeline fills it: its stage, or why it is off. */
  explain(profile: PipelineProfile): EffectiveSlot[] {
    return [...DECISION_SLOTS, ...RESULT_SLOTS].map((slot): EffectiveSlot => {
      const s = profile.slots[slot];
      if (!s.on) return { slot, on: false, reason: s.reason };
      if (slot === 'parameters' && !this.layers.policy) {
        return { slot, on: false, reason: `${NO_POLICY_FILES}, so no parameter constraints` };
      }
      if (slot === 'policy' && !this.layers.policy) {
        return {
          slot,
          on: true,
          stage: 'rbac',
          note: `${NO_POLICY_FILES}: the manifests' roles, data levels and tenants decide`,
        };
      }
      return { slot, on: true, stage: STAGE_NAME[slot] };
    });
  }

  #decisionStage(slot: DecisionSlot, site: GatewaySite, profile: PipelineProfile): GatewayStage | undefined {
    const { layers } = this;
    switch (slot) {
      case 'access': {
        const resolveTool = site.resolveTool ?? ((n: string) => site.tools.get(n));
        return createAccessStage({
          resolveTool,
          ...(site.allow ? { defaultState: allowlistState(site.allow) } : {}),
        });
      }
      case 'schema':
        return schemaStage;
      case 'policy':
        return layers.policy ? policySlotStage(layers.policy) : rbacStage;
      case 'parameters':
        return layers.policy ? createParameterStage(layers.policy.document.parameters) : undefined;
      case 'intent':
        return createIntentStage();
      case 'review':
        return reviewStage;
      case 'hooks':
        return createHookStage(required(layers.hooks, slot, profile));
      case 'approval': {
        const resolveTool = site.resolveTool ?? ((n: string) => site.tools.get(n));
        return createApprovalStage({ resolveTool });
      }
      case 'rate-limit':
        return createRateLimitStage({ limiter: required(layers.rateLimiter, slot, profile) });
      case 'breaker':
        return createBreakerStage(required(layers.breakers, slot, profile));
    }
  }

  #resultStage(slot: ResultSlot, profile: PipelineProfile): ResultStage {
    switch (slot) {
      case 'quote':
        return this.#quote;
      case 'redact':
        return this.#redact;
      case 'fact':
        return required(this.layers.factStage, slot, profile);
    }
  }
}

const STAGE_NAME: Readonly<Record<Slot, string>> = {
  access: 'access',
  schema: 'schema',
  policy: 'policy',
  parameters: 'parameters',
  intent: 'intent',
  review: 'review',
  hooks: 'hooks',
  approval: 'approval',
  'rate-limit': 'resilience',
  breaker: 'breaker',
  quote: 'result.quote',
  redact: 'result.redact',
  fact: 'result.fact',
};

function required<T>(layer: T | undefined, slot: Slot, profile: PipelineProfile): T {
  if (layer === undefined) {
    throw new PipelineError(
      'pipeline.missing-layer',
      `profile ${profile.name} turns the ${slot} slot on, but no layer was given to fill it`,
      { where: `profile ${profile.name}: ${slot}` },
    );
  }
  return layer;
}

/** The access state of a call that carries none: the site's allowlist, no extra rules. */
export function allowlistState(allow: ReadonlySet<string>): AccessState {
  return {
    agentName: 'main',
    tools: allow,
    rules: compileRuleSet([], { projectRoot: '/', cwd: '/', home: '/' }),
    mode: 'default',
    background: false,
    depth: 0,
  };
}
