/**
 * Permission modes of both SDK families mapped onto Twinline's approval modes. Pure data: the
 * access layer decides what each Twinline mode does per tool kind.
 */

/** Twinline's approval modes that a host may select (`bubble` is for sub-agents only). */
export const HOST_APPROVAL_MODES = ['plan', 'default', 'auto-edit', 'auto', 'yolo'] as const;
export type HostApprovalMode = (typeof HOST_APPROVAL_MODES)[number];

/** A host mode resolved: what Twinline runs, and what the host is told. */
export interface ResolvedMode {
  readonly approvalMode: HostApprovalMode;
  /** The name echoed back to the host (its own vocabulary). */
  readonly reported: string;
  /** `dontAsk`: `ask` verdicts are denied without prompting the host. */
  readonly neverPrompt: boolean;
}

const CLAUDE_MODES: Readonly<Record<string, ResolvedMode>> = {
  default: { approvalMode: 'default', reported: 'default', neverPrompt: false },
  manual: { approvalMode: 'default', reported: 'default', neverPrompt: false },
  acceptEdits: { approvalMode: 'auto-edit', reported: 'acceptEdits', neverPrompt: false },
  bypassPermissions: { approvalMode: 'yolo', reported: 'bypassPermissions', neverPrompt: false },
  plan: { approvalMode: 'plan', reported: 'plan', neverPrompt: false },
  dontAsk: { approvalMode: 'default', reported: 'dontAsk', neverPrompt: true },
  delegate: { approvalMode: 'default', reported: 'delegate', neverPrompt: false },
  auto: { approvalMode: 'auto', reported: 'auto', neverPrompt: false },
};

/**
 * Resolves a mode name from either family (Claude's `acceptEdits`, Qwen's `auto-edit`, …).
 * Returns undefined for an unknown name — the caller answers with an error naming the valid ones.
 */
export function resolvePermissionMode(name: string): ResolvedMode | undefined {
  if ((HOST_APPROVAL_MODES as readonly string[]).includes(name)) {
    const mode = name as HostApprovalMode;
    return { approvalMode: mode, reported: mode, neverPrompt: false };
  }
  return Object.hasOwn(CLAUDE_MODES, name) ? CLAUDE_MODES[name] : undefined;
}

/** Every accepted mode name, for error messages. */
export function validPermissionModeNames(): string[] {
  return [...new Set([...HOST_APPROVAL_MODES, ...Object.keys(CLAUDE_MODES)])];
}
