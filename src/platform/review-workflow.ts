import { decide, hashCanonical, type Identity, type StageDecision, uuidV7 } from '../core/index.js';
import type { Egress, EgressGate } from '../gates/index.js';
import {
  type GatedRequestResult,
  gateRequestResult,
  type InputVerdict,
  type RequestResult,
} from '../lines/index.js';
import type { EndedReview, ProcessReport, ReviewService } from '../review/index.js';
import {
  type AuditSink,
  INPUT_REVIEW_NAME,
  type InputReview,
  type Store,
  type ToolCallReview,
} from '../store/index.js';
import type { ToolSpec } from '../tools/index.js';
import type { TaskScheduler } from './task-scheduler.js';

/** What deciding a review did. */
export interface ReviewDecisionResult {
  readonly id: string;
  readonly decided: boolean;
  readonly status: string;
  /** The call's outcome when the approval ran it (or decided again that it may not run), gated for the reviewer. */
  readonly execution?: {
    readonly status: string;
    readonly modelContent: string;
    readonly decision: StageDecision;
  };
  /** A flagged request a reviewer cleared: its result after it ran (gated for the reviewer). */
  readonly request?: GatedRequestResult;
  /** The deep task that continues after this review. */
  readonly resumedTask?: string;
  /** Why the decision was refused (four-eyes: the requester may not approve their own call). */
  readonly refused?: { readonly ruleId: string; readonly reason: string };
}

/** What the review workflow needs (docs/architecture.md, "Platform"). */
export interface ReviewWorkflowDeps {
  readonly store: Store;
  /** Decides and runs tool-call reviews (four-eyes, reviewer rules, exactly-once execution). */
  readonly reviews: ReviewService;
  /** Continues the deep task a review belongs to. */
  readonly scheduler: Pick<TaskScheduler, 'continueAfter'>;
  readonly egress: Egress;
  readonly audit: AuditSink;
  /** The audit's view of arguments (redacted at its data level), when the audit keeps them. */
  readonly auditArguments?: ((tool: ToolSpec, args: unknown) => { args: unknown; level: string }) | undefined;
  readonly resolveIdentity: (tenant: string, user: string) => Identity | undefined;
  /** Runs a request a reviewer cleared, as its author, on the normal path. */
  readonly runCleared: (author: Identity, query: string, sessionId: string) => Promise<RequestResult>;
  readonly now: () => Date;
}

/** How long a flagged request waits for a reviewer. */
const INPUT_REVIEW_TTL_MS = 24 * 3600_000;

/**
 * The review workflow (docs/architecture.md, "Platform"): queues flagged input, approves, denies
 * and expires both kinds of review, and carries the outcome forward in one trip — a tool call's
 * review names its deep task, which continues at once; a cleared input runs as its author.
 */
export class ReviewWorkflow {
  constructor(private readonly deps: ReviewWorkflowDeps) {}

  /** Approves a review (reviewer of the same tenant): runs the call or the request once. */
  async approve(reviewer: Identity, id: string, note?: string): Promise<ReviewDecisionResult> {
    const item = await this.deps.store.forTenant(reviewer.tenant).reviews.get(id);
    if (!item) return { id, decided: false, status: 'missing' };
    return item.kind === 'input'
      ? this.#decideInput(reviewer, item, true, note)
      : this.#approveCall(reviewer, item, note);
  }

  /** Denies a review; a deep task waiting on it continues without that step. */
  async deny(reviewer: Identity, id: string, note?: string): Promise<ReviewDecisionResult> {
    const item = await this.deps.store.forTenant(reviewer.tenant).reviews.get(id);
    if (!item) return { id, decided: false, status: 'missing' };
    if (item.kind === 'input') return this.#decideInput(reviewer, item, false, note);
    const outcome = await this.deps.reviews.deny(id, reviewer.user, note);
    const resumedTask = outcome.decided
      ? await this.#continueTask(item, { status: 'denied', summary: note ?? 'denied by a reviewer' })
      : undefined;
    return { id, decided: outcome.decided, status: outcome.status, ...(resumedTask ? { resumedTask } : {}) };
  }

  /**
   * Expires stale reviews, lets reviewer rules decide tool calls and runs the approved ones. The
   * tasks parked on reviews that ended are woken by `TaskScheduler.wake` (the platform's sweep).
   */
  expire(): Promise<ProcessReport> {
    return this.deps.reviews.process();
  }

  /** Queues a request the input gate flagged, and records the stop in the audit beside tool calls. */
  async flagInput(item: {
    identity: Identity;
    sessionId: string;
    query: string;
    verdict: InputVerdict;
  }): Promise<{ id: string }> {
    const { identity, sessionId, query, verdict } = item;
    const reason = `input gate: ${verdict.verdict} (score ${verdict.score}): ${verdict.findings
      .map((f) => f.reason)
      .slice(0, 3)
      .join('; ')}`;
    const parked = await this.deps.store.forTenant(identity.tenant).reviews.enqueue({
      kind: 'input',
      tenant: identity.tenant,
      user: identity.user,
      sessionId,
      query,
      identity,
      reason,
      expiresAt: new Date(this.deps.now().getTime() + INPUT_REVIEW_TTL_MS).toISOString(),
    });
    this.#auditInput(identity, sessionId, query, verdict, reason, parked.id);
    return parked;
  }

  async #approveCall(reviewer: Identity, item: ToolCallReview, note?: string): Promise<ReviewDecisionResult> {
    const { id } = item;
    const outcome = await this.deps.reviews.approve(id, reviewer.user, note);
    if (outcome.refused) return { id, decided: false, status: outcome.status, refused: outcome.refused };
    // Losing the claim to another approver (or process) is not an execution of ours.
    const exec =
      outcome.execution?.decision.ruleId === 'review.not-claimable' ? undefined : outcome.execution;
    const resumedTask = exec
      ? await this.#continueTask(item, {
          status: exec.status === 'executed' ? 'executed' : 'failed',
          summary: exec.modelContent,
        })
      : undefined;
    const gate = this.#reviewGate(reviewer, item.sessionId);
    return {
      id,
      decided: outcome.decided,
      status: outcome.status,
      ...(exec
        ? {
            execution: {
              status: exec.status,
              modelContent: gate.text(exec.modelContent),
              decision: gate.value(exec.decision),
            },
          }
        : {}),
      ...(resumedTask ? { resumedTask } : {}),
    };
  }

  /**
   * The task the review belongs to, continued with how it ended. A review queued before reviews
   * named their task has none here: the sweep wakes its task (`sweep`, `TaskScheduler.wake`).
   */
  #continueTask(item: ToolCallReview, ended: EndedReview): Promise<string | undefined> {
    if (!item.taskId) return Promise.resolve(undefined);
    return this.deps.scheduler.continueAfter(item.tenant, item.taskId, item.id, ended);
  }

  async #decideInput(
    reviewer: Identity,
    pending: InputReview,
    approve: boolean,
    note?: string,
  ): Promise<ReviewDecisionResult> {
    const { id } = pending;
    const reviewsRepo = this.deps.store.forTenant(reviewer.tenant).reviews;
    if (approve && pending.status === 'pending' && pending.user === reviewer.user) {
      // Four-eyes: a flagged request is cleared by someone other than its author.
      return {
        id,
        decided: false,
        status: pending.status,
        refused: {
          ruleId: 'review.four-eyes',
          reason: `${reviewer.user} wrote this request and may not clear it; another reviewer must`,
        },
      };
    }
    const { changed } = await reviewsRepo.decide(id, {
      decision: approve ? 'approved' : 'denied',
      by: reviewer.user,
      ...(note !== undefined ? { note } : {}),
    });
    const item = await reviewsRepo.get(id);
    if (!approve || !changed || item?.kind !== 'input' || !(await reviewsRepo.claimForExecution(id))) {
      return { id, decided: changed, status: item?.status ?? 'missing' };
    }
    // The reviewer vouched for the text; it now takes the normal path as its author.
    const author = this.deps.resolveIdentity(item.tenant, item.user);
    const result = author ? await this.deps.runCleared(author, item.query, item.sessionId) : undefined;
    await reviewsRepo.complete(id, {
      status: result ? 'executed' : 'failed',
      // Stored gated for the lowest level before it is cut: a value cut in half is no longer
      // recognised by the gate that runs when the summary is read, nor a steer to an address.
      resultSummary: result
        ? `${result.outcome}: ${this.#storedSummary(item.tenant, item.sessionId, result.text)}`
        : 'author no longer exists',
    });
    return {
      id,
      decided: true,
      status: result ? 'executed' : 'failed',
      ...(result ? { request: gateRequestResult(this.#reviewGate(reviewer, item.sessionId), result) } : {}),
    };
  }

  /**
   * A request the input gate stopped, in the audit beside the tool calls (docs/operations.md,
   * "Decision log"): the query only as the decision log keeps arguments, its review linked.
   */
  #auditInput(
    identity: Identity,
    sessionId: string,
    query: string,
    verdict: InputVerdict,
    reason: string,
    reviewId: string,
  ): void {
    const time = this.deps.now();
    const d = decide(
      verdict.verdict === 'block' ? 'deny' : 'review',
      'input',
      `input.${verdict.verdict}`,
      reason,
      {
        details: { score: verdict.score, findings: [...new Set(verdict.findings.map((f) => f.type))] },
      },
    );
    // The audit's redaction looks a manifest up by name; an input review has none but its name.
    const logged = this.deps.auditArguments?.({ name: INPUT_REVIEW_NAME } as ToolSpec, { query });
    this.deps.audit.record({
      id: uuidV7(time.getTime()),
      time: time.toISOString(),
      tenant: identity.tenant,
      user: identity.user,
      sessionId,
      agent: 'input_gate',
      domain: 'input',
      tool: INPUT_REVIEW_NAME,
      callId: `input-${reviewId}`,
      argsHash: hashCanonical({ query }),
      status: verdict.verdict === 'block' ? 'denied' : 'review',
      decisionPath: [d],
      resultSummary: `queued for review ${reviewId}`,
      durationMs: 0,
      decidedBy: { stage: d.stage, ruleId: d.ruleId, reason: d.reason, verdict: d.verdict },
      reviewId,
      ...(logged ? { args: logged.args, argsLevel: logged.level } : {}),
    });
  }

  /** Text kept in the store for anyone to read later: gated for level L1, unmarked, cut short. */
  #storedSummary(tenant: string, sessionId: string, text: string): string {
    return this.deps.egress
      .for({ viewer: { tenant, user: 'store', dataLevel: 'L1' }, sessionId, channel: 'review' })
      .value(text)
      .slice(0, 200);
  }

  /** The gate for what a reviewer is sent about a review of session `sessionId`. */
  #reviewGate(reviewer: Identity, sessionId: string): EgressGate {
    return this.deps.egress.for({ viewer: reviewer, sessionId, channel: 'review' });
  }
}
