import { type ApprovalMode, PRIVILEGED_MODES, parseApprovalMode } from './approval-mode.js';
import { parseRule, type RuleEffect } from './rule-parser.js';
import type { CompiledRuleSet } from './rule-set.js';

/** Where a host wants a permission change kept (the Claude Agent SDK's destinations). */
export type PermissionDestination =
  | 'session'
  | 'cliArg'
  | 'localSettings'
  | 'projectSettings'
  | 'userSettings';

/** A host's permission change, as read from the wire (`updatedPermissions`). */
export type PermissionUpdate =
  | {
      readonly type: 'addRules' | 'replaceRules' | 'removeRules';
      readonly rules: readonly { readonly toolName: string; readonly ruleContent?: string }[];
      readonly behavior: RuleEffect;
      readonly destination: PermissionDestination;
    }
  | { readonly type: 'setMode'; readonly mode: string; readonly destination: PermissionDestination }
  | {
      readonly type: 'addDirectories' | 'removeDirectories';
      readonly directories: readonly string[];
      readonly destination: PermissionDestination;
    };

/** The settings level a destination writes: none for the session (kept in memory only). */
export type PersistedLevel = 'local' | 'project' | 'user';

/** What the engine may do with one update, decided before anything is applied or written. */
export type PlannedUpdate =
  | {
      readonly kind: 'rules';
      readonly op: 'add' | 'replace' | 'remove';
      readonly effect: RuleEffect;
      readonly rules: readonly string[];
      readonly level: PersistedLevel | undefined;
    }
  | {
      readonly kind: 'mode';
      readonly mode: ApprovalMode;
      readonly name: string;
      readonly level: PersistedLevel | undefined;
    }
  | { readonly kind: 'refused'; readonly what: string; readonly reason: string };

/** What the planner needs to know about the session, from trusted state only. */
export interface PermissionUpdateContext {
  readonly trusted: boolean;
  readonly folder: string;
  /** The managed (administrator) level's rules; their denies are never written around. */
  readonly managed: CompiledRuleSet | undefined;
  /** Managed settings say only managed rules count: no other level's allow or ask may be added. */
  readonly managedOnly: boolean;
}

const LEVEL_OF: Readonly<Record<PermissionDestination, PersistedLevel | undefined>> = {
  session: undefined,
  cliArg: undefined,
  localSettings: 'local',
  projectSettings: 'project',
  userSettings: 'user',
};

const GLOB = /[*?[\]{}]/;

function ruleText(r: { readonly toolName: string; readonly ruleContent?: string }): string {
  return r.ruleContent === undefined || r.ruleContent === '' ? r.toolName : `${r.toolName}(${r.ruleContent})`;
}

/**
 * Why a managed deny rule stands in the way of `text` (an allow or ask rule), or undefined. Only
 * a literal shell command can be told apart from the deny rules of the same tool; any other rule
 * on a tool the managed level denies anything of is refused, since it might cover what is denied.
 */
function managedObjection(text: string, effect: RuleEffect, managed: CompiledRuleSet): string | undefined {
  const parsed = parseRule(text, effect);
  if ('error' in parsed) return undefined;
  const denies = managed.rulesFor(parsed.rule.tool).deny;
  if (denies.length === 0) return undefined;
  const whole = denies.find((d) => d.specifier === undefined);
  if (whole) return `managed settings deny ${whole.text}`;
  const spec = parsed.rule.specifier;
  if (parsed.rule.kind === 'command' && spec !== undefined && !GLOB.test(spec)) {
    const hit = denies.find((d) => d.test?.(spec) === true);
    return hit ? `managed settings deny ${hit.text}` : undefined;
  }
  return `managed settings deny rules of ${parsed.rule.tool} (${denies.map((d) => d.text).join(', ')}) that this rule could cover`;
}

/**
 * Decides what one of a host's permission updates may do, pure. Rules: every rule must parse; an
 * allow or ask rule is refused when a managed deny could cover it, or when managed settings allow
 * only managed rules; settings files of the project are refused in an untrusted folder (they are
 * ignored there, and writing them would plant rules for the day it is trusted); a rule written to
 * a file must name a tool (no `*` patterns). Modes: privileged modes need a trusted folder; `bubble`
 * is a sub-agent's. Extra directories are refused: the workspace tools stay in the working folder.
 */
export function planPermissionUpdate(update: PermissionUpdate, ctx: PermissionUpdateContext): PlannedUpdate {
  const level = LEVEL_OF[update.destination];
  const where = level === undefined ? 'the session' : `${level} settings`;
  if ((level === 'project' || level === 'local') && !ctx.trusted) {
    return {
      kind: 'refused',
      what: `${update.type} → ${update.destination}`,
      reason: `the folder ${ctx.folder} is not trusted: its settings are ignored, so the engine does not write them`,
    };
  }
  switch (update.type) {
    case 'addDirectories':
    case 'removeDirectories':
      return {
        kind: 'refused',
        what: `${update.type} ${update.directories.join(', ')}`,
        reason:
          "the workspace tools stay inside the session's working folder; extra directories are not supported",
      };
    case 'setMode': {
      const mode = parseApprovalMode(update.mode);
      if (!mode || mode === 'bubble') {
        return {
          kind: 'refused',
          what: `setMode ${update.mode}`,
          reason: `"${update.mode}" is not a mode a host may set`,
        };
      }
      if (PRIVILEGED_MODES.has(mode) && !ctx.trusted) {
        return {
          kind: 'refused',
          what: `setMode ${update.mode} → ${update.destination}`,
          reason: `mode ${update.mode} needs a trusted folder; ${ctx.folder} is not trusted`,
        };
      }
      return { kind: 'mode', mode, name: update.mode, level };
    }
    default: {
      const op = update.type === 'addRules' ? 'add' : update.type === 'replaceRules' ? 'replace' : 'remove';
      const texts = update.rules.map(ruleText);
      for (const text of texts) {
        const parsed = parseRule(text, update.behavior);
        if ('error' in parsed) {
          return {
            kind: 'refused',
            what: `${update.type} ${text}`,
            reason: `the rule does not parse: ${parsed.error}`,
          };
        }
        if (op === 'remove') continue;
        if (level !== undefined && (parsed.rule.tool === '*' || parsed.rule.tool.endsWith('*'))) {
          return {
            kind: 'refused',
            what: `${update.type} ${text} → ${update.destination}`,
            reason: 'a rule written to a settings file must name a tool, not a pattern',
          };
        }
        if (update.behavior === 'deny') continue;
        if (ctx.managedOnly) {
          return {
            kind: 'refused',
            what: `${update.type} ${text} → ${where}`,
            reason: 'managed settings allow only managed permission rules',
          };
        }
        const objection = ctx.managed ? managedObjection(text, update.behavior, ctx.managed) : undefined;
        if (objection)
          return { kind: 'refused', what: `${update.type} ${text} → ${where}`, reason: objection };
      }
      return { kind: 'rules', op, effect: update.behavior, rules: texts, level };
    }
  }
}
