import { decide, hashCanonical, type Identity, type StageDecision, uuidV7 } from '../core/index.js';
import type { Egress, EgressGate } from '../gates/index.js';
import { type GatedRequestResult, gateRequestResult, type InputVerdict } from '../lines/index.js';
import type { ProcessReport, ReviewService } from '../review/index.js';
import { type AuditSink, INPUT_REVIEW_NAME, type Store } from '../store/index.js';
import type { ToolSpec } from '../tools/index.js';
import type { ApprovedReviewExecutor } from './approved-review-executor.js';

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

/** What the review half of a sweep did: `ProcessReport`, with the task each run continued. */
export interface ReviewSweepReport extends ProcessReport {
  readonly executed: readonly { id: string; status: string; resumedTask?: string }[];
}

/** What the review workflow needs (docs/architecture.md, "Platform"). */
export interface ReviewWorkflowDeps {
  readonly store: Store;
  /** Decides reviews (four-eyes, reviewer rules, expiry), each in one conditional update. */
  readonly reviews: ReviewService;
  /** Runs what was approved, once, and continues its task. */
  readonly executor: ApprovedReviewExecutor;
  readonly egress: Egress;
  readonly audit: AuditSink;
  /** The audit's view of arguments (redacted at its data level), when the audit keeps them. */
  readonly auditArguments?: ((tool: ToolSpec, args: unknown) => { args: unknown; level: string }) | undefined;
  readonly now: () => Date;
}

/** How long a flagged request waits for a reviewer. */
const INPUT_REVIEW_TTL_MS = 24 * 3600_000;

/**
 * The review workflow (docs/architecture.md, "Platform"): queues flagged input, decides both kinds
 * of review and hands what was approved to the executor, one trip forward — a tool call replays
 * and its deep task continues by the task id on the review; a cleared input runs as its author.
 */
export class ReviewWorkflow {
  constructor(private readonly deps: ReviewWorkflowDeps) {}

  /** Approves a review (reviewer of the same tenant): runs the call or the request once. */
  async approve(reviewer: Identity, id: string, note?: string): Promise<ReviewDecisionResult> {
    const reviews = this.deps.store.forTenant(reviewer.tenant).reviews;
    if (!(await reviews.get(id))) return { id, decided: false, status: 'missing' };
    const decision = await this.deps.reviews.decideApproval(id, reviewer.user, note);
    const { decided, refused, approved } = decision;
    if (refused) return { id, decided: false, status: decision.status, refused };
    const exec = approved && (await this.deps.executor.execute(approved.item, approved.approval));
    const status = exec
      ? exec.status
      : approved
        ? ((await reviews.get(id))?.status ?? decision.status)
        : decision.status;
    if (!exec) return { id, decided, status };
    const gate = this.#reviewGate(reviewer, approved.item.sessionId);
    if (exec.kind === 'input')
      return {
        id,
        decided,
        status,
        ...(exec.result ? { request: gateRequestResult(gate, exec.result) } : {}),
      };
    const { result, resumedTask } = exec;
    return {
      id,
      decided,
      status,
      execution: {
        status: result.status,
        modelContent: gate.text(result.modelContent),
        decision: gate.value(result.decision),
      },
      ...(resumedTask ? { resumedTask } : {}),
    };
  }

  /** Denies a review; a deep task waiting on it continues without that step. */
  async deny(reviewer: Identity, id: string, note?: string): Promise<ReviewDecisionResult> {
    const item = await this.deps.store.forTenant(reviewer.tenant).reviews.get(id);
    if (!item) return { id, decided: false, status: 'missing' };
    const outcome = await this.deps.reviews.deny(id, reviewer.user, note);
    const resumedTask =
      outcome.decided && item.kind === 'tool_call'
        ? await this.deps.executor.continueTask(item, {
            status: 'denied',
            summary: note ?? 'denied by a reviewer',
          })
        : undefined;
    return { id, decided: outcome.decided, status: outcome.status, ...(resumedTask ? { resumedTask } : {}) };
  }

  /**
   * The review half of the platform's sweep: expires stale reviews, lets reviewer rules decide
   * tool calls, then runs every approved review no one ran — calls and cleared inputs alike, an
   * approval whose process stopped before running it too — and continues their tasks. Tasks
   * parked on reviews that ended otherwise are woken by `TaskScheduler.wake`.
   */
  async sweep(): Promise<ReviewSweepReport> {
    const settled = await this.deps.reviews.settle();
    return { ...settled, executed: await this.deps.executor.sweep() };
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

  /** The gate for what a reviewer is sent about a review of session `sessionId`. */
  #reviewGate(reviewer: Identity, sessionId: string): EgressGate {
    return this.deps.egress.for({ viewer: reviewer, sessionId, channel: 'review' });
  }
}
