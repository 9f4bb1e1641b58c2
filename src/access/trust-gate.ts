import { ConfigError } from '../core/index.js';
import { type ApprovalMode, PRIVILEGED_MODES } from './approval-mode.js';

/** A privileged approval mode was requested in a folder that is not trusted. */
export class TrustGateError extends ConfigError {
  constructor(mode: ApprovalMode, folder: string) {
    super('access.trust-gate', `approval mode "${mode}" needs a trusted folder`, {
      where: folder,
      details: { mode },
    });
  }
}

/** Throws {@link TrustGateError} when switching to `mode` is not allowed in this folder. */
export function assertModeAllowed(mode: ApprovalMode, trusted: boolean, folder: string): void {
  if (!trusted && PRIVILEGED_MODES.has(mode)) throw new TrustGateError(mode, folder);
}
