import { type ApprovalMode, isModeWithin, PRIVILEGED_MODES } from './approval-mode.js';

/**
 * `narrow` (default): a child never runs more permissively than its parent; a definition's
 * stricter mode is honoured. `qwen-compatible`: Qwen Code's resolution, row by row.
 */
export type SubagentModePolicy = 'narrow' | 'qwen-compatible';

/**
 * The approval mode a sub-agent runs in.
 *
 * narrow: no definition mode → the parent's mode; a definition mode within the parent's (by
 * {@link isModeWithin}) → the definition's; a more permissive one → the parent's. An untrusted
 * folder then refuses privileged modes (auto-edit, auto, yolo) → `default` (`plan` under a plan
 * parent). `bubble` survives when the parent is at least `default`.
 *
 * qwen-compatible: a yolo/auto-edit/auto parent always wins; `bubble` runs as `default`; a
 * definition mode is taken unless it is privileged in an untrusted folder (then the parent's);
 * no definition mode: plan parent → plan, trusted → auto-edit, else the parent's.
 */
export function resolveSubagentMode(
  parent: ApprovalMode,
  definition: { readonly approvalMode?: ApprovalMode } | ApprovalMode | undefined,
  trusted: boolean,
  policy: SubagentModePolicy = 'narrow',
): ApprovalMode {
  const requested = typeof definition === 'string' ? definition : definition?.approvalMode;
  if (policy === 'qwen-compatible') return qwenCompatible(parent, requested, trusted);
  let mode: ApprovalMode = requested !== undefined && isModeWithin(requested, parent) ? requested : parent;
  if (!trusted && PRIVILEGED_MODES.has(mode)) mode = parent === 'plan' ? 'plan' : 'default';
  return mode;
}

function qwenCompatible(
  parent: ApprovalMode,
  requested: ApprovalMode | undefined,
  trusted: boolean,
): ApprovalMode {
  if (parent === 'yolo' || parent === 'auto-edit' || parent === 'auto') return parent;
  if (requested === 'bubble') return 'default';
  if (requested !== undefined) {
    if (!trusted && PRIVILEGED_MODES.has(requested)) return parent;
    return requested;
  }
  if (parent === 'plan') return 'plan';
  if (trusted) return 'auto-edit';
  return parent;
}

/**
 * A mode an `agent` call asks for (`mode:` argument) against its parent's: accepted only when
 * it grants nothing more; otherwise undefined (the request is ignored).
 */
export function clampRequestedMode(requested: ApprovalMode, parent: ApprovalMode): ApprovalMode | undefined {
  return isModeWithin(requested, parent) ? requested : undefined;
}
