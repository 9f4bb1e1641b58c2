/**
 * Approval modes. `bubble` is for sub-agents only: it behaves like `default`, but its `ask`
 * verdicts go to the parent's approver instead of being denied in the background.
 */
export const APPROVAL_MODES = ['plan', 'default', 'auto-edit', 'auto', 'yolo', 'bubble'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

/** Modes an untrusted folder refuses: they run calls without a person confirming them. */
export const PRIVILEGED_MODES: ReadonlySet<ApprovalMode> = new Set(['auto-edit', 'auto', 'yolo']);

/**
 * How permissive a mode is, for "a child never runs more permissively than its parent".
 * `plan` 0 < `default` = `bubble` 1 < `auto-edit` 2 < `auto` 3 < `yolo` 4. `auto` and `auto-edit`
 * are not strictly ordered (auto-edit approves edits `auto` would ask about), so
 * {@link isModeWithin} also refuses `auto-edit` under an `auto` parent.
 */
export const MODE_RANK: Readonly<Record<ApprovalMode, number>> = {
  plan: 0,
  default: 1,
  bubble: 1,
  'auto-edit': 2,
  auto: 3,
  yolo: 4,
};

/** True when `child` grants nothing `parent` does not. */
export function isModeWithin(child: ApprovalMode, parent: ApprovalMode): boolean {
  if (MODE_RANK[child] > MODE_RANK[parent]) return false;
  if (parent === 'auto' && child === 'auto-edit') return false;
  return true;
}

export function isApprovalMode(value: unknown): value is ApprovalMode {
  return typeof value === 'string' && (APPROVAL_MODES as readonly string[]).includes(value);
}

/**
 * Claude Code's `permissionMode` values mapped to Twinline modes. `auto` keeps its meaning (we
 * have a real `auto` mode; Qwen Code maps it to auto-edit); `dontAsk` becomes `default`, whose asks
 * a background agent turns into denials anyway.
 */
export const PERMISSION_MODE_ALIASES: Readonly<Record<string, ApprovalMode>> = {
  default: 'default',
  plan: 'plan',
  acceptEdits: 'auto-edit',
  auto: 'auto',
  bypassPermissions: 'yolo',
  dontAsk: 'default',
  bubble: 'bubble',
  // Qwen Code spellings seen in hook payloads and settings.
  auto_edit: 'auto-edit',
  autoEdit: 'auto-edit',
};

/** A mode from either vocabulary, or undefined when the value names no mode. */
export function parseApprovalMode(value: unknown): ApprovalMode | undefined {
  if (isApprovalMode(value)) return value;
  if (typeof value === 'string' && Object.hasOwn(PERMISSION_MODE_ALIASES, value)) {
    return PERMISSION_MODE_ALIASES[value];
  }
  return undefined;
}
