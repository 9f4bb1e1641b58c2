import type { ApprovalAnswer, ApprovalRequest, Approver } from '../gateway/index.js';
import type { ResourceTracker } from './resource-tracker.js';

/** Denies every request at once: a background agent with no one to ask never waits. */
export function denyingApprover(message: string): Approver {
  return { request: async () => ({ behavior: 'deny', message }) };
}

/**
 * Bounds another approver: no answer within `timeoutMs`, or the call cancelled, → deny. The timer
 * is tracked so a cancelled tree leaves nothing armed.
 */
export function boundedApprover(
  inner: Approver,
  timeoutMs: number,
  tracker: ResourceTracker,
  label = 'approval timeout',
): Approver {
  return {
    request(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
      return new Promise<ApprovalAnswer>((resolve) => {
        const ac = new AbortController();
        let done = false;
        const finish = (a: ApprovalAnswer) => {
          if (done) return;
          done = true;
          clearTimer();
          signal.removeEventListener('abort', onAbort);
          ac.abort();
          resolve(a);
        };
        const onAbort = () => finish({ behavior: 'deny', message: 'approval cancelled' });
        const clearTimer = tracker.setTimer(label, timeoutMs, () =>
          finish({ behavior: 'deny', message: `no answer within ${timeoutMs} ms; denied` }),
        );
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        inner.request(req, ac.signal).then(finish, (err: unknown) =>
          finish({
            behavior: 'deny',
            message: `approver failed: ${(err as Error)?.message ?? String(err)}`,
          }),
        );
      });
    },
  };
}

/** Wraps an approver so every request and answer is reported (approval_requested/answered events). */
export function observedApprover(
  inner: Approver,
  on: {
    requested(req: ApprovalRequest): void;
    answered(req: ApprovalRequest, answer: ApprovalAnswer): void;
  },
): Approver {
  return {
    async request(req, signal) {
      on.requested(req);
      const answer = await inner.request(req, signal);
      on.answered(req, answer);
      return answer;
    },
  };
}
