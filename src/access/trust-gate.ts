import { ConfigError } from '../core/index.js';
import {
  APPROVAL_MODES,
  type ApprovalMode,
  PERMISSION_MODE_ALIASES,
  PRIVILEGED_MODES,
  parseApprovalMode,
} from './approval-mode.js';
import type { EffectiveAccessSettings } from './settings.js';

/** Where a requested mode came from, for the error a host or user sees. */
export interface ModeRequest {
  /** The name as given (`bypassPermissions`, `yolo`, `acceptEdits`, …). */
  readonly name: string;
  /** `--permission-mode`, `set_permission_mode`, a settings file, `AgentSession`, … */
  readonly source: string;
}

/** The folder a session works in and whether it is trusted (see `loadFolderTrust`). */
export interface FolderTrustView {
  readonly trusted: boolean;
  readonly folder: string;
}

/**
 * A privileged approval mode (auto-edit, auto, yolo and their Claude names acceptEdits, auto,
 * bypassPermissions) was requested in a folder that is not trusted. Names the mode, how it was
 * asked for and the folder; never turned into a silent downgrade.
 */
export class TrustGateError extends ConfigError {
  readonly mode: ApprovalMode;
  readonly folder: string;

  constructor(mode: ApprovalMode, folder: string, request?: Partial<ModeRequest>) {
    const asked = request?.name && request.name !== mode ? `"${request.name}" (${mode})` : `"${mode}"`;
    const from = request?.source ? ` from ${request.source}` : '';
    super(
      'access.trust-gate',
      `approval mode ${asked}${from} needs a trusted folder, and this folder is not trusted (trust it in ~/.twinline/trustedFolders.json)`,
      {
        where: folder,
        details: {
          mode,
          folder,
          ...(request?.name ? { requested: request.name } : {}),
          ...(request?.source ? { source: request.source } : {}),
        },
      },
    );
    this.mode = mode;
    this.folder = folder;
  }
}

/** A mode name that names no session mode. */
export class UnknownModeError extends ConfigError {
  constructor(request: ModeRequest) {
    const valid = [
      ...new Set([
        ...APPROVAL_MODES.filter((m) => m !== 'bubble'),
        ...Object.keys(PERMISSION_MODE_ALIASES).filter((m) => m !== 'bubble'),
      ]),
    ];
    super(
      'access.unknown-mode',
      `unknown approval mode ${JSON.stringify(request.name)}; valid: ${valid.join(', ')}`,
      {
        where: request.source,
        details: { requested: request.name },
      },
    );
  }
}

/** Throws {@link TrustGateError} when switching to `mode` is not allowed in this folder. */
export function assertModeAllowed(
  mode: ApprovalMode,
  trusted: boolean,
  folder: string,
  request?: Partial<ModeRequest>,
): void {
  if (!trusted && PRIVILEGED_MODES.has(mode)) throw new TrustGateError(mode, folder, request);
}

/**
 * The one trust gate for a session mode, whichever door sets it (a CLI flag, a control request,
 * the SDK, a settings file): parses the name in either vocabulary and refuses a privileged mode
 * in a folder that is not trusted. `bubble` is a sub-agent mode, never a session's. Pure.
 */
export function gateApprovalMode(request: ModeRequest, trust: FolderTrustView): ApprovalMode {
  const mode = parseApprovalMode(request.name);
  if (mode === undefined || mode === 'bubble') throw new UnknownModeError(request);
  assertModeAllowed(mode, trust.trusted, trust.folder, request);
  return mode;
}

/**
 * The mode a session starts in: the one asked for explicitly (flag, SDK option), else the
 * settings' start mode. Both pass the trust gate; a privileged start mode from a settings file in
 * an untrusted folder is refused with the file named, not quietly replaced by `default`.
 */
export function resolveStartMode(input: {
  readonly requested?: ModeRequest;
  readonly settings: EffectiveAccessSettings;
  readonly trust: FolderTrustView;
}): ApprovalMode {
  if (input.requested) return gateApprovalMode(input.requested, input.trust);
  const refused = input.settings.refusedMode;
  if (refused) throw new TrustGateError(refused.mode, input.trust.folder, { source: refused.source });
  return input.settings.approvalMode;
}
