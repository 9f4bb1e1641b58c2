import { type AttributeValue, dataLevelRank, type Identity } from '../core/index.js';
import { RISK_LEVELS, type RiskLevel } from '../tools/index.js';
import type { ToolFacts } from './types.js';

/** The caller as conditions see it. Built from `Identity` only — never from arguments. */
export interface PrincipalView {
  readonly user: string;
  readonly tenant: string;
  readonly roles: readonly string[];
  readonly dataLevel: number;
  readonly attrs: Readonly<Record<string, AttributeValue>>;
  /** Key of (tenant, roles) used to cache per-tool rule slices. */
  readonly sliceKey: string;
}

/** The tool as conditions see it, from its manifest. Levels are numeric ranks. */
export interface ToolView {
  readonly name: string;
  readonly category: string;
  readonly risk: number;
  readonly dataLevel: number;
  readonly allowedRoles: readonly string[];
}

/** What a compiled condition evaluates against. */
export interface DecisionEnv {
  readonly p: PrincipalView;
  readonly t: ToolView;
  readonly args: unknown;
}

/** Principal attribute names that come from the identity itself rather than `attributes`. */
export const PRINCIPAL_BUILTINS = ['user', 'tenant', 'roles', 'dataLevel'] as const;
export const TOOL_ATTRIBUTES = ['name', 'category', 'risk', 'dataLevel', 'allowedRoles'] as const;

/** Numeric rank of a risk level (`low` → 1 … `critical` → 4). */
export function riskRank(level: RiskLevel): number {
  return RISK_LEVELS.indexOf(level) + 1;
}

const principalCache = new WeakMap<Identity, PrincipalView>();

/** The principal view of an identity, cached per identity object (identities are immutable). */
export function principalView(identity: Identity): PrincipalView {
  let view = principalCache.get(identity);
  if (!view) {
    const roles = [...identity.roles].sort();
    view = {
      user: identity.user,
      tenant: identity.tenant,
      roles,
      dataLevel: dataLevelRank(identity.dataLevel),
      attrs: identity.attributes,
      sliceKey: `${identity.tenant}\u0000${roles.join('\u0000')}`,
    };
    principalCache.set(identity, view);
  }
  return view;
}

const toolCache = new WeakMap<ToolFacts, ToolView>();

/** The tool view of manifest facts, cached per facts object. */
export function toolView(facts: ToolFacts): ToolView {
  let view = toolCache.get(facts);
  if (!view) {
    view = {
      name: facts.name,
      category: facts.category,
      risk: riskRank(facts.riskLevel),
      dataLevel: dataLevelRank(facts.requiredDataLevel),
      allowedRoles: facts.allowedRoles,
    };
    toolCache.set(facts, view);
  }
  return view;
}
