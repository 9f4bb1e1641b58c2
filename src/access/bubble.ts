import type { ApprovalAnswer, ApprovalRequest, Approver } from '../gateway/index.js';

export interface BubbleOptions {
  /** How long the parent has to answer. Unanswered → denied. */
  readonly timeoutMs: number;
  /** Told about every request that ended without the parent's answer (timeout, error, abort). */
  readonly onUnanswered?: (req: ApprovalRequest, reason: string) => void;
}

/**
 * An approver for a `bubble` sub-agent: forwards its approval requests to the parent's approver,
 * and denies — with the reason in the message — any request the parent does not answer in time,
 * answers with an error, or that is aborted. Never hangs. No parent approver → immediate denial.
 */
export function bubbleApprover(parent: Approver | undefined, options: BubbleOptions): Approver {
  return {
    request(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
      const deny = (reason: string): ApprovalAnswer => {
        options.onUnanswered?.(req, reason);
        return { behavior: 'deny', message: reason };
      };
      if (!parent)
        return Promise.resolve(deny(`No approver is available for ${req.call.name}; the call was denied.`));
      if (signal.aborted)
        return Promise.resolve(deny(`Approval for ${req.call.name} was cancelled; the call was denied.`));
      const inner = new AbortController();
      return new Promise<ApprovalAnswer>((resolve) => {
        let settled = false;
        const finish = (answer: ApprovalAnswer | (() => ApprovalAnswer)) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          inner.abort();
          resolve(typeof answer === 'function' ? answer() : answer);
        };
        const onAbort = () =>
          finish(() => deny(`Approval for ${req.call.name} was cancelled; the call was denied.`));
        const timer = setTimeout(
          () =>
            finish(() =>
              deny(
                `No answer to the approval request for ${req.call.name} within ${options.timeoutMs} ms; the call was denied.`,
              ),
            ),
          options.timeoutMs,
        );
        signal.addEventListener('abort', onAbort, { once: true });
        let pending: Promise<ApprovalAnswer>;
        try {
          pending = parent.request(req, inner.signal);
        } catch (err) {
          finish(() => deny(`The parent approver failed (${(err as Error).message}); the call was denied.`));
          return;
        }
        pending.then(
          (answer) => finish(answer),
          (err: unknown) =>
            finish(() =>
              deny(
                `The parent approver failed (${(err as Error)?.message ?? String(err)}); the call was denied.`,
              ),
            ),
        );
      });
    },
  };
}
