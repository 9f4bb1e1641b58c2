import { type ApprovalMode, PRIVILEGED_MODES, parseApprovalMode } from './approval-mode.js';
import type { RuleSource } from './rule-set.js';
import type { SubagentModePolicy } from './subagent-mode.js';

/** The access-related part of a settings file. Unknown keys belong to other modules. */
export interface AccessSettingsFile {
  readonly permissions?: {
    readonly allow?: readonly string[];
    readonly ask?: readonly string[];
    readonly deny?: readonly string[];
    /** Starting approval mode (Claude Code spelling accepted: acceptEdits, bypassPermissions…). */
    readonly defaultMode?: string;
  };
  /** Starting approval mode (alias of permissions.defaultMode; this one wins). */
  readonly approvalMode?: string;
  readonly agents?: {
    readonly maxDepth?: number;
    readonly modePolicy?: SubagentModePolicy;
  };
  /** Managed settings only: ignore every other level's permission rules. */
  readonly allowManagedPermissionRulesOnly?: boolean;
}

export type SettingsLevel = 'user' | 'project' | 'local' | 'managed';

export interface SettingsLayer {
  readonly level: SettingsLevel;
  readonly path: string;
  readonly settings: AccessSettingsFile;
}

/** Settings after merging the levels for one folder. */
export interface EffectiveAccessSettings {
  /** Rule sources in the order they apply (all levels' rules are unioned; deny > ask > allow). */
  readonly ruleSources: readonly RuleSource[];
  readonly approvalMode: ApprovalMode;
  readonly maxDepth?: number;
  readonly modePolicy: SubagentModePolicy;
  /** What was ignored and why (untrusted folder, managed-only rules, refused mode). */
  readonly notices: readonly string[];
  /**
   * A privileged start mode a settings file asked for in an untrusted folder: `approvalMode` is
   * then `default` for reports (`twinline agents`), and a session refuses to start on it
   * (`resolveStartMode` throws, naming the file) rather than quietly running in another mode.
   */
  readonly refusedMode?: { readonly mode: ApprovalMode; readonly source: string };
}

const LEVEL_ORDER: readonly SettingsLevel[] = ['user', 'project', 'local', 'managed'];

/**
 * Merges settings levels. Rules: union of every level (so a deny anywhere holds), unless managed
 * settings say `allowManagedPermissionRulesOnly`. Scalars: managed > local > project > user. An
 * untrusted folder drops project and local settings entirely and refuses privileged start modes.
 */
export function mergeAccessSettings(
  layers: readonly SettingsLayer[],
  trusted: boolean,
): EffectiveAccessSettings {
  const notices: string[] = [];
  const sorted = [...layers].sort((a, b) => LEVEL_ORDER.indexOf(a.level) - LEVEL_ORDER.indexOf(b.level));
  const active = sorted.filter((l) => {
    if (!trusted && (l.level === 'project' || l.level === 'local')) {
      notices.push(`${l.path} ignored: the folder is not trusted.`);
      return false;
    }
    return true;
  });
  const managedOnly = active.some(
    (l) => l.level === 'managed' && l.settings.allowManagedPermissionRulesOnly === true,
  );
  const ruleSources: RuleSource[] = [];
  for (const l of active) {
    if (managedOnly && l.level !== 'managed') {
      if (l.settings.permissions)
        notices.push(`${l.path} permission rules ignored: managed settings allow only managed rules.`);
      continue;
    }
    const p = l.settings.permissions;
    if (p) ruleSources.push({ source: l.path, allow: p.allow ?? [], ask: p.ask ?? [], deny: p.deny ?? [] });
  }
  let approvalMode: ApprovalMode = 'default';
  let modeSource: string | undefined;
  let maxDepth: number | undefined;
  let modePolicy: SubagentModePolicy = 'narrow';
  for (const l of active) {
    const raw = l.settings.approvalMode ?? l.settings.permissions?.defaultMode;
    if (raw !== undefined) {
      const m = parseApprovalMode(raw);
      if (m === undefined || m === 'bubble')
        notices.push(`${l.path}: approval mode "${raw}" is not a start mode; ignored.`);
      else {
        approvalMode = m;
        modeSource = l.path;
      }
    }
    if (l.settings.agents?.maxDepth !== undefined) maxDepth = l.settings.agents.maxDepth;
    if (l.settings.agents?.modePolicy !== undefined) modePolicy = l.settings.agents.modePolicy;
  }
  let refusedMode: EffectiveAccessSettings['refusedMode'];
  if (!trusted && PRIVILEGED_MODES.has(approvalMode)) {
    notices.push(
      `Approval mode "${approvalMode}" from ${modeSource} refused: it needs a trusted folder (a session will not start on it).`,
    );
    refusedMode = { mode: approvalMode, source: modeSource ?? 'settings' };
    approvalMode = 'default';
  }
  return {
    ruleSources,
    approvalMode,
    ...(maxDepth !== undefined ? { maxDepth } : {}),
    modePolicy,
    notices,
    ...(refusedMode ? { refusedMode } : {}),
  };
}
