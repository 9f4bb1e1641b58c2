import type { DataLevel, Identity } from '../core/index.js';
import type { RiskLevel } from '../tools/index.js';

/** A path into the decision environment: `principal.*`, `tool.*` or `args.*`. */
export type AttributePath = readonly string[];

/** The right-hand side of a comparison: another attribute, or a literal. */
export type Operand =
  | { readonly ref: AttributePath }
  | { readonly value: string | number | boolean | readonly string[] };

export const COMPARISON_OPS = ['equals', 'in', 'subsetOf', 'contains', 'lte', 'gte', 'lt', 'gt'] as const;
export type ComparisonOp = (typeof COMPARISON_OPS)[number];

/**
 * The condition language: deliberately small, every form has a direct Cedar counterpart (see
 * `toCedarPolicies`). An atom whose operand is missing or of the wrong type is false.
 */
export type Condition =
  | { readonly all: readonly Condition[] }
  | { readonly any: readonly Condition[] }
  | { readonly not: Condition }
  | { readonly attr: AttributePath; readonly exists: true; readonly at?: ConditionSite }
  | {
      readonly attr: AttributePath;
      readonly op: ComparisonOp;
      readonly operand: Operand;
      readonly at?: ConditionSite;
    };

/** Where an atom was written: its field inside the rule (`when.all.1`) and its line, for load errors. */
export interface ConditionSite {
  readonly field: string;
  readonly line?: number;
}

export type RuleEffect = 'allow' | 'deny';

/** One validated policy rule. Scopes left undefined match everything. */
export interface PolicyRule {
  readonly id: string;
  readonly effect: RuleEffect;
  readonly description?: string;
  readonly roles?: readonly string[];
  readonly tenants?: readonly string[];
  readonly tools?: readonly string[];
  readonly categories?: readonly string[];
  readonly when?: Condition;
  /** Where the rule was declared, for messages (`file:line`). */
  readonly source?: string;
}

/** A validated policy document: RBAC grants are already expanded into `allow` rules. */
export interface PolicyDocument {
  readonly rules: readonly PolicyRule[];
  readonly parameters: ParameterConfig;
  readonly source?: string;
}

/** The facts about a tool a policy decision may use — taken from the manifest, never from args. */
export interface ToolFacts {
  readonly name: string;
  readonly category: string;
  readonly riskLevel: RiskLevel;
  readonly requiredDataLevel: DataLevel;
  readonly allowedRoles: readonly string[];
}

/** What the engine answers. `ruleId` always names the rule that decided. */
export interface PolicyDecision {
  readonly effect: RuleEffect;
  readonly ruleId: string;
  readonly reason: string;
}

export type { Identity };

// ---- parameter gate configuration (declared next to the policies) ----

/** Keep an argument inside what the caller may see. */
export interface ScopeConstraint {
  /** Principal attribute holding the allowed values, e.g. `principal.departments`. */
  readonly within: AttributePath;
  /** A value meaning "everything" (e.g. `all`), replaced by the allowed set when narrowing. */
  readonly wildcard?: string;
  /** `narrow` rewrites the argument to the allowed part; `refuse` denies. */
  readonly onOutside: 'narrow' | 'refuse';
  /** Roles for which the scope is not enforced. */
  readonly exemptRoles?: readonly string[];
}

export interface DateConstraint {
  /** Max distance from now, either direction, in days. */
  readonly maxDaysFromNow?: number;
  readonly maxDaysAgo?: number;
  readonly maxDaysAhead?: number;
}

export interface NumberConstraint {
  readonly min?: number;
  readonly max?: number;
}

export interface ArgumentConstraint {
  readonly scope?: ScopeConstraint;
  readonly date?: DateConstraint;
  readonly number?: NumberConstraint;
  readonly oneOf?: readonly (string | number)[];
  /** Where it was declared (`file:line`), for load and merge errors. */
  readonly source?: string;
}

export interface ParameterConfig {
  /** tool name → argument name → constraint. */
  readonly tools: Readonly<Record<string, Readonly<Record<string, ArgumentConstraint>>>>;
  /** Third-party text check: tools at or above this risk may not take such text as arguments. */
  readonly thirdParty: { readonly minRisk: RiskLevel; readonly minRun: number };
  /** Where `thirdParty` was declared (`file:line`); absent → the defaults. */
  readonly thirdPartySource?: string;
}
