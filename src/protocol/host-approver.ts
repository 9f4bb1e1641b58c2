import type { PermissionUpdate } from '../access/permission-updates.js';
import { canonicalJson } from '../core/index.js';
import type { ApprovalAnswer, ApprovalRequest, Approver } from '../gateway/index.js';
import type { ControlBus } from './control-bus.js';
import { ProtocolError } from './errors.js';
import { readPermissionResult } from './wire-checks.js';

export interface HostApproverOptions {
  /** How long the host has to answer before the call is denied. */
  readonly timeoutMs: number;
  /** The id the host knows the call by (default: the gateway's call id). */
  readonly toolUseId?: (req: ApprovalRequest) => string;
  /** `permission_suggestions` for a tool, in the host's vocabulary. */
  readonly suggestions?: (toolName: string) => unknown[];
  /** The host denied with `interrupt: true`: the whole turn must end. */
  readonly onInterrupt?: (message: string) => void;
  /** Every denial (by the host or by failure), for the turn's `permission_denials`. */
  readonly onDenied?: (req: ApprovalRequest, message: string) => void;
  /**
   * The arguments as the host may see them (the egress gate: PII masked for the session's
   * viewer). A host that answers `allow` with exactly what it was shown approves the call as
   * proposed; anything else it sends is its own edit.
   */
  readonly present?: (args: unknown) => unknown;
  /**
   * The host allowed with `updatedPermissions` ("always allow this"): applied before the answer
   * returns, so the next call already sees them. They never change this call's decision.
   */
  readonly onPermissionUpdates?: (updates: readonly PermissionUpdate[], req: ApprovalRequest) => void;
}

/**
 * The {@link Approver} that delegates `ask` verdicts to the host with a `can_use_tool` control
 * request. Fails closed: a timeout, a cancellation, an `error` response, a malformed answer or a
 * host that went away all deny the call.
 */
export class HostApprover implements Approver {
  constructor(
    private readonly bus: ControlBus,
    private readonly options: HostApproverOptions,
  ) {}

  async request(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    const answer = await this.ask(req, signal);
    if (answer.behavior === 'deny') this.options.onDenied?.(req, answer.message ?? 'denied');
    return answer;
  }

  private async ask(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    let raw: unknown;
    const shown = this.options.present ? this.options.present(req.args) : req.args;
    try {
      raw = await this.bus.request(
        {
          subtype: 'can_use_tool',
          tool_name: req.tool.name,
          display_name: req.tool.name,
          input: shown,
          tool_use_id: this.options.toolUseId?.(req) ?? req.call.id,
          description: req.tool.description.slice(0, 500),
          decision_reason: req.decision.reason,
          permission_suggestions: this.options.suggestions?.(req.tool.name) ?? [],
          blocked_path: null,
        },
        { timeoutMs: this.options.timeoutMs, signal },
      );
    } catch (err) {
      const why = err instanceof ProtocolError ? err.message : String(err);
      return { behavior: 'deny', message: `Permission request failed: ${why}` };
    }
    const result = readPermissionResult(raw);
    if (!result) {
      return { behavior: 'deny', message: 'Permission request failed: the host sent an unreadable answer' };
    }
    if (result.behavior === 'allow') {
      if (result.updatedPermissions) this.options.onPermissionUpdates?.(result.updatedPermissions, req);
      // An absent updatedInput means "as proposed" (Claude 0.3 makes it optional); so does the
      // input echoed back as it was shown (SDK callbacks usually return `updatedInput: input`).
      const asShown =
        this.options.present !== undefined &&
        result.updatedInput !== undefined &&
        canonicalJson(result.updatedInput) === canonicalJson(shown);
      return result.updatedInput === undefined || asShown
        ? { behavior: 'allow' }
        : { behavior: 'allow', updatedArgs: result.updatedInput };
    }
    const message = result.message ?? 'Denied by host';
    if (result.interrupt) this.options.onInterrupt?.(message);
    return { behavior: 'deny', message };
  }
}

/** Denies every `ask` without prompting (`dontAsk`, or a host that cannot answer). */
export class DenyAllApprover implements Approver {
  constructor(
    private readonly reason: string,
    private readonly onDenied?: (req: ApprovalRequest, message: string) => void,
  ) {}
  async request(req: ApprovalRequest): Promise<ApprovalAnswer> {
    this.onDenied?.(req, this.reason);
    return { behavior: 'deny', message: this.reason };
  }
}
