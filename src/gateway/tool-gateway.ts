import {
  type CallObservation,
  decide,
  decidedBy,
  type GatewayObserver,
  hashCanonical,
  type Identity,
  type SandboxGrant,
  type SandboxProfile,
  type StageDecision,
  TwinlineError,
  toolUnavailable,
  uuidV7,
  type Verdict,
} from '../core/index.js';
import type { AuditRecord, AuditSink, CallStatus } from '../store/index.js';
import type { ToolSpec } from '../tools/index.js';
import { type ExecutionOutcome, executeWithTimeout } from './execute-with-timeout.js';
import { renderModelContent } from './model-content.js';
import { summariseOutput } from './result-summary.js';
import type { ApprovedReview, ReviewExecutionLedger, ReviewQueue } from './review-queue.js';
import { defaultResultStages, defaultStages, validateArgs } from './stages/index.js';
import type {
  CallContext,
  GatewayResult,
  GatewayStage,
  PreparedCall,
  ResultStage,
  ToolCall,
} from './types.js';

/** Where the gateway looks tools up (a `ToolRegistry`, or anything with an O(1) `get`). */
export interface ToolLookup {
  get(name: string): ToolSpec | undefined;
}

export interface ToolGatewayOptions {
  readonly tools: ToolLookup;
  /** Receives exactly one record per attempted call. Never awaited on the decision path. */
  readonly audit: AuditSink;
  /** Pre-execution stages in order; defaults to `defaultStages()` (schema, rbac, review). */
  readonly stages?: readonly GatewayStage[];
  /** Post-execution transforms in order; defaults to none. */
  readonly resultStages?: readonly ResultStage[];
  /** Where `review` verdicts are queued, and how approved reviews are claimed and completed. */
  readonly reviews?: ReviewQueue & Partial<ReviewExecutionLedger>;
  /** Upper bound on waiting for an approver; default 60 s. */
  readonly approvalTimeoutMs?: number;
  /** How long a queued review stays approvable; default 24 h. */
  readonly reviewTtlMs?: number;
  /** A gateway that may only `check` (dry run): `invoke` throws, since nothing could be audited. */
  readonly dryRunOnly?: boolean;
  /** Sees every attempted call, stage by stage (spans, metrics); absent costs nothing. */
  readonly observer?: GatewayObserver;
  /**
   * The arguments as the audit keeps them beside their hash (redacted by the tool's tags at the
   * audit's data level); absent: the audit keeps the hash only.
   */
  readonly auditArgs?: (tool: ToolSpec, args: unknown) => AuditArguments | undefined;
}

/** Arguments as the decision log records them, and the data level they were redacted for. */
export interface AuditArguments {
  readonly args: unknown;
  readonly level: string;
}

/** The verdict of a dry run: what the gateway would decide, without executing or auditing. */
export interface GatewayCheck {
  readonly callId: string;
  readonly tool: string;
  readonly verdict: Verdict;
  readonly decision: StageDecision;
  readonly path: readonly StageDecision[];
  /** Arguments as the last stage left them. */
  readonly args: unknown;
}

type PreOutcome = {
  readonly verdict: Verdict;
  readonly decision: StageDecision;
  readonly path: StageDecision[];
  readonly prepared: PreparedCall;
};

interface RunOptions {
  readonly skipStage?: string;
  readonly dryRun: boolean;
  /** Replaying an approved review: any verdict but allow ends the call without queueing or asking. */
  readonly replay?: boolean;
  /** Decisions made before the stages ran (the reviewer's approval), first in the path. */
  readonly leadPath?: readonly StageDecision[];
  /**
   * The approver already answered for exactly these arguments (they edited them): an `ask` is
   * that answer; every other verdict stands.
   */
  readonly answered?: StageDecision;
  /** Deciding a rewrite again: the slot that rewrote stands on this decision (see `reenter`). */
  readonly standing?: StageDecision;
}

/** How an approved review runs again: who the requester is now, and who approved it. */
export interface ReviewReplay {
  /** The requester as the directory resolves them now; undefined when they no longer exist. */
  readonly identity: Identity | undefined;
  /** The approval, recorded first in the decision path (who decided, and any self-approval rule). */
  readonly approval?: StageDecision;
}

const NO_STAGES: StageDecision = Object.freeze({
  verdict: 'allow',
  stage: 'gateway',
  ruleId: 'gateway.no-stages',
  reason: 'no pre-execution stage objected',
});

function isPromise<T>(v: T | Promise<T>): v is Promise<T> {
  return typeof (v as { then?: unknown } | null)?.then === 'function';
}

/**
 * The one path every tool call takes: ordered stages, each of which may end the call
 * (deny / ask / review); then execution under a timeout; then result transforms; then exactly one
 * audit record. The model only ever sees `GatewayResult.modelContent`.
 */
export class ToolGateway {
  readonly stages: readonly GatewayStage[];
  readonly resultStages: readonly ResultStage[];
  readonly #tools: ToolLookup;
  readonly #audit: AuditSink;
  readonly #reviews: (ReviewQueue & Partial<ReviewExecutionLedger>) | undefined;
  readonly #approvalTimeoutMs: number;
  readonly #reviewTtlMs: number;
  readonly #dryRunOnly: boolean;
  readonly #observer: GatewayObserver | undefined;
  readonly #auditArgs: ToolGatewayOptions['auditArgs'];
  /** Calls this gateway made to run an approved review, and the review each one runs. */
  readonly #replays = new WeakMap<ToolCall, string>();

  constructor(options: ToolGatewayOptions) {
    this.#tools = options.tools;
    this.#audit = options.audit;
    this.stages = [...(options.stages ?? defaultStages())];
    this.resultStages = [...(options.resultStages ?? defaultResultStages())];
    this.#reviews = options.reviews;
    this.#approvalTimeoutMs = options.approvalTimeoutMs ?? 60_000;
    this.#reviewTtlMs = options.reviewTtlMs ?? 24 * 3600_000;
    this.#dryRunOnly = options.dryRunOnly ?? false;
    this.#observer = options.observer;
    this.#auditArgs = options.auditArgs;
  }

  /** Decides, executes when every stage allows, audits, and tells the model what happened. */
  invoke(call: ToolCall, ctx: CallContext): Promise<GatewayResult> {
    if (this.#dryRunOnly) {
      return Promise.reject(
        new TwinlineError('gateway.dry-run-only', 'this gateway can only check calls (no store)'),
      );
    }
    return this.#attempt(call, ctx, { dryRun: false });
  }

  /**
   * Dry run: every pre-execution stage's verdict, stopping before execute. Nothing is executed,
   * queued, asked or audited (an `ask` is reported, not put to the approver).
   */
  async check(call: ToolCall, ctx: CallContext): Promise<GatewayCheck> {
    const tool = this.#tools.get(call.name);
    if (!tool) {
      const d = toolUnavailable(call.name);
      return {
        callId: call.id,
        tool: call.name,
        verdict: 'deny',
        decision: d,
        path: [d],
        args: call.arguments,
      };
    }
    const pre = await this.#runStages({ call, tool, args: call.arguments }, ctx, { dryRun: true });
    return {
      callId: call.id,
      tool: call.name,
      verdict: pre.verdict,
      decision: pre.decision,
      path: pre.path,
      args: pre.prepared.args,
    };
  }

  /**
   * Runs a review a person (or a reviewer rule) approved: claims it (exactly once, atomically, in
   * the store), then decides the call again from the start with `replay.identity` — the requester
   * as the directory knows them now, not as they were when the call was queued — and every stage
   * of this gateway (a `review-replay` profile: the review slot is the approval itself). A call
   * that no longer passes is recorded on the review and in the audit, and never executed.
   */
  async executeApprovedReview(review: ApprovedReview, replay: ReviewReplay): Promise<GatewayResult> {
    if (this.#dryRunOnly)
      throw new TwinlineError('gateway.dry-run-only', 'this gateway can only check calls (no store)');
    const ledger = this.#reviews;
    if (!ledger?.claimForExecution || !ledger.complete) {
      throw new TwinlineError(
        'gateway.no-review-ledger',
        'the gateway has no review store to claim reviews from',
      );
    }
    const identity = replay.identity ?? review.identity;
    const ctx: CallContext = {
      identity,
      sessionId: review.sessionId,
      domain: review.domain,
      ...(review.agent && review.agent !== 'main'
        ? { agent: { name: review.agent, depth: 1, background: false, teammate: false } }
        : {}),
      // A reviewer approved this very call: that is its declaration (a replay profile that keeps
      // the intent slot sees it declared, never more than this one tool).
      declaredCapabilities: [review.tool],
      ...(review.taskId ? { taskId: review.taskId } : {}),
    };
    const call: ToolCall = { id: `review-${review.id}`, name: review.tool, arguments: review.args };
    this.#replays.set(call, review.id);
    const started = performance.now();
    const time = new Date();
    const lead = replay.approval ? [replay.approval] : [];
    if (!(await ledger.claimForExecution(review.id))) {
      return this.#notClaimable(call, ctx, review, started, time);
    }
    if (!replay.identity) {
      const d = decide(
        'deny',
        'review',
        'review.requester-unknown',
        `The requester ${review.user} is no longer in the directory of tenant ${review.tenant}; the approved call does not run.`,
      );
      await ledger.complete(review.id, { status: 'failed', resultSummary: `re-decided: ${d.ruleId}` });
      return this.#finish(call, ctx, started, time, {
        status: 'denied',
        decision: d,
        path: [...lead, d],
        args: review.args,
      });
    }
    const result = await this.#attempt(call, ctx, {
      dryRun: false,
      skipStage: 'review',
      replay: true,
      leadPath: lead,
    });
    await ledger.complete(review.id, {
      status: result.status === 'executed' ? 'executed' : 'failed',
      resultSummary:
        result.status === 'executed'
          ? summariseOutput(result.output)
          : `${result.status === 'denied' ? 're-decided' : result.status}: ${result.decision.stage}/${result.decision.ruleId}: ${result.error?.message ?? result.decision.reason}`.slice(
              0,
              300,
            ),
    });
    return result;
  }

  #notClaimable(
    call: ToolCall,
    ctx: CallContext,
    review: ApprovedReview,
    started: number,
    time: Date,
  ): GatewayResult {
    const d = decide(
      'deny',
      'review',
      'review.not-claimable',
      `Review ${review.id} is not approved or was already executed.`,
    );
    return this.#finish(call, ctx, started, time, {
      status: 'denied',
      decision: d,
      path: [d],
      args: review.args,
    });
  }

  #attempt(call: ToolCall, ctx: CallContext, opts: RunOptions): Promise<GatewayResult> {
    if (!this.#observer) return this.#attemptObserved(call, ctx, opts, undefined);
    const obs = this.#observer.call(call, ctx, this.#tools.get(call.name));
    return this.#attemptObserved(call, ctx, opts, obs).then((result) => {
      obs.end(result);
      return result;
    });
  }

  async #attemptObserved(
    call: ToolCall,
    ctx: CallContext,
    opts: RunOptions,
    obs: CallObservation | undefined,
  ): Promise<GatewayResult> {
    const started = performance.now();
    const time = ctx.now ? ctx.now() : new Date();
    const tool = this.#tools.get(call.name);
    if (!tool) {
      const d = toolUnavailable(call.name);
      return this.#finish(call, ctx, started, time, {
        status: 'denied',
        decision: d,
        path: [d],
        args: call.arguments,
      });
    }
    let pre: PreOutcome;
    try {
      pre = await this.#runStages({ call, tool, args: call.arguments }, ctx, opts, obs);
    } catch (err) {
      const d = decide('deny', 'gateway', 'stage.error', `A gateway stage failed: ${messageOf(err)}`);
      return this.#finish(call, ctx, started, time, {
        status: 'failed',
        decision: d,
        path: [d],
        args: call.arguments,
        error: { code: 'stage.error', message: messageOf(err) },
      });
    }
    const { decision, path, prepared } = pre;
    if (opts.replay && pre.verdict !== 'allow') {
      // A changed outcome: the approval was for a call that no longer passes; it never runs.
      return this.#finish(call, ctx, started, time, {
        status: 'denied',
        decision,
        path,
        args: prepared.args,
      });
    }
    if (pre.verdict === 'deny') {
      return this.#finish(call, ctx, started, time, {
        // A resilience stage marks a refusal for load (not for policy) as `rate_limited`.
        status: decision.details?.status === 'rate_limited' ? 'rate_limited' : 'denied',
        decision,
        path,
        args: prepared.args,
      });
    }
    if (pre.verdict === 'ask') {
      return this.#finish(call, ctx, started, time, { status: 'ask', decision, path, args: prepared.args });
    }
    if (pre.verdict === 'review') {
      return this.#enqueueReview(call, ctx, started, time, pre);
    }
    // The sandbox comes from the stages' decisions (the approval stage's), never from the call.
    const sandbox = sandboxGrantOf(path);
    let ranUnder: SandboxProfile | undefined;
    const run = () =>
      executeWithTimeout(
        tool,
        prepared.args,
        {
          identity: ctx.identity,
          sessionId: ctx.sessionId,
          callId: call.id,
          ...(ctx.agent ? { agent: ctx.agent } : {}),
          ...(ctx.idempotencyKey ? { idempotencyKey: ctx.idempotencyKey } : {}),
          ...(ctx.cwd ? { cwd: ctx.cwd } : {}),
          ...(ctx.caller ? { caller: ctx.caller } : {}),
          ...(sandbox ? { sandbox } : {}),
          reportSandbox: (profile) => {
            ranUnder = profile;
          },
        },
        ctx.signal,
      );
    const outcome = await (obs ? obs.execute(tool.name, run) : run());
    if (outcome.status !== 'executed') {
      return this.#finish(call, ctx, started, time, {
        status: outcome.status,
        decision,
        path,
        args: prepared.args,
        error: outcome.error,
        ...(ranUnder ? { sandbox: ranUnder } : {}),
      });
    }
    return this.#finishExecuted(call, ctx, started, time, pre, outcome, ranUnder, obs);
  }

  async #finishExecuted(
    call: ToolCall,
    ctx: CallContext,
    started: number,
    time: Date,
    pre: PreOutcome,
    outcome: Extract<ExecutionOutcome, { status: 'executed' }>,
    ranUnder: SandboxProfile | undefined,
    obs: CallObservation | undefined,
  ): Promise<GatewayResult> {
    const sandbox = ranUnder ? { sandbox: ranUnder } : {};
    let output = outcome.output;
    const notes: string[] = [];
    try {
      for (const stage of this.resultStages) {
        const seen = obs?.stage(stage.name);
        let t = stage.transform(output, pre.prepared, ctx);
        if (isPromise(t)) t = await t;
        seen?.end();
        output = t.output;
        if (t.notes) notes.push(...t.notes);
      }
    } catch (err) {
      // The raw output never reaches the model when a result transform (e.g. redaction) fails.
      return this.#finish(call, ctx, started, time, {
        status: 'failed',
        decision: pre.decision,
        path: pre.path,
        args: pre.prepared.args,
        error: { code: 'result-stage.error', message: `A result stage failed: ${messageOf(err)}` },
        ...sandbox,
      });
    }
    return this.#finish(call, ctx, started, time, {
      status: 'executed',
      decision: pre.decision,
      path: pre.path,
      args: pre.prepared.args,
      output,
      notes,
      ...sandbox,
    });
  }

  async #enqueueReview(
    call: ToolCall,
    ctx: CallContext,
    started: number,
    time: Date,
    pre: PreOutcome,
  ): Promise<GatewayResult> {
    const { decision, path, prepared } = pre;
    if (!this.#reviews) {
      const d = decide(
        'deny',
        'review',
        'review.unavailable',
        'No review queue is configured, so the call cannot run.',
      );
      return this.#finish(call, ctx, started, time, {
        status: 'denied',
        decision: d,
        path: [...path, d],
        args: prepared.args,
      });
    }
    try {
      const { id } = await this.#reviews.enqueue({
        tenant: ctx.identity.tenant,
        user: ctx.identity.user,
        sessionId: ctx.sessionId,
        agent: ctx.agent?.name ?? 'main',
        domain: ctx.domain ?? 'main',
        tool: call.name,
        args: prepared.args,
        identity: ctx.identity,
        reason: decision.reason,
        decisionPath: path,
        expiresAt: new Date(time.getTime() + this.#reviewTtlMs).toISOString(),
        ...(ctx.taskId ? { taskId: ctx.taskId } : {}),
      });
      return this.#finish(call, ctx, started, time, {
        status: 'review',
        decision,
        path,
        args: prepared.args,
        reviewId: id,
      });
    } catch (err) {
      return this.#finish(call, ctx, started, time, {
        status: 'failed',
        decision,
        path,
        args: prepared.args,
        error: { code: 'review.enqueue-failed', message: `Could not queue the review: ${messageOf(err)}` },
      });
    }
  }

  async #runStages(
    prepared: PreparedCall,
    ctx: CallContext,
    opts: RunOptions,
    obs?: CallObservation,
  ): Promise<PreOutcome> {
    const path: StageDecision[] = opts.leadPath ? [...opts.leadPath] : [];
    let current = prepared;
    // One approval per call: once the approver allowed these arguments, a later `ask` in the same
    // pass (a hook's, then the mode's) is that answer, not a second prompt.
    let answered = opts.answered;
    for (const stage of this.stages) {
      if (stage.name === opts.skipStage) continue;
      let d: StageDecision;
      const seen = obs?.stage(stage.name);
      if (opts.standing && opts.standing.stage === stage.name) d = opts.standing;
      else {
        const e = stage.evaluate(current, ctx);
        d = isPromise(e) ? await e : e;
      }
      seen?.end(d);
      if (d.reenter !== undefined && d.updatedArgs !== undefined) {
        // A rewrite that is a new call (a host hook edited the input): the same path as an
        // approver's edit — schema, then every slot from the first on the edited arguments, with
        // this slot standing on the stage's own verdict instead of asking it again.
        path.push(d);
        const v = validateArgs(current.tool.inputSchema, current.tool.name, d.updatedArgs);
        path.push(v);
        if (v.verdict !== 'allow') return { verdict: 'deny', decision: v, path, prepared: current };
        return this.#runStages(
          { call: current.call, tool: current.tool, args: v.updatedArgs },
          ctx,
          {
            ...opts,
            leadPath: path,
            standing: d.reenter,
            ...(answered ? { answered } : {}),
          },
          obs,
        );
      }
      path.push(d);
      if (d.updatedArgs !== undefined)
        current = { call: current.call, tool: current.tool, args: d.updatedArgs };
      if (d.verdict === 'allow') continue;
      if (d.verdict === 'ask' && answered) {
        path.push(answered);
        continue;
      }
      if (d.verdict === 'ask' && !opts.dryRun && !opts.replay && ctx.approver) {
        const asking = obs?.stage('approver');
        const answer = await this.#askApprover(current, d, ctx);
        asking?.end(answer.decision);
        path.push(answer.decision);
        if (answer.decision.verdict !== 'allow') {
          return { verdict: 'deny', decision: answer.decision, path, prepared: current };
        }
        if (answer.updatedArgs !== undefined) {
          // Edited arguments are a new call: schema, rules, policy and parameters decide again on
          // them from the first stage. Only an `ask` counts as answered — by this approval.
          const v = validateArgs(current.tool.inputSchema, current.tool.name, answer.updatedArgs);
          path.push(v);
          if (v.verdict !== 'allow') return { verdict: 'deny', decision: v, path, prepared: current };
          const again = await this.#runStages(
            { call: current.call, tool: current.tool, args: v.updatedArgs },
            ctx,
            { ...opts, leadPath: path, answered: answer.decision },
            obs,
          );
          return again;
        }
        answered = answer.decision;
        continue;
      }
      return { verdict: d.verdict, decision: d, path, prepared: current };
    }
    const last = path.length ? path[path.length - 1]! : NO_STAGES;
    return { verdict: 'allow', decision: last, path, prepared: current };
  }

  #askApprover(
    prepared: PreparedCall,
    asked: StageDecision,
    ctx: CallContext,
  ): Promise<{ decision: StageDecision; updatedArgs?: unknown }> {
    const approver = ctx.approver!;
    const timeoutMs = this.#approvalTimeoutMs;
    const noAnswer = (why: string) => ({
      decision: decide('deny', 'approval', 'approval.timeout', why, { details: { timeoutMs } }),
    });
    if (ctx.signal?.aborted)
      return Promise.resolve(noAnswer('The call was cancelled while waiting for approval.'));
    const controller = new AbortController();
    return new Promise((resolve) => {
      let settled = false;
      const settle = (r: { decision: StageDecision; updatedArgs?: unknown }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        ctx.signal?.removeEventListener('abort', onAbort);
        resolve(r);
      };
      const onAbort = () => {
        controller.abort(ctx.signal?.reason);
        settle(noAnswer('The call was cancelled while waiting for approval.'));
      };
      const timer = setTimeout(() => {
        controller.abort(new Error('approval timeout'));
        settle(noAnswer(`No approval answer within ${timeoutMs} ms.`));
      }, timeoutMs);
      ctx.signal?.addEventListener('abort', onAbort, { once: true });
      Promise.resolve()
        .then(() =>
          approver.request(
            { call: prepared.call, tool: prepared.tool, args: prepared.args, decision: asked, ctx },
            controller.signal,
          ),
        )
        .then(
          (answer) => {
            if (answer.behavior === 'allow') {
              settle({
                decision: decide(
                  'allow',
                  'approval',
                  'approval.granted',
                  answer.message ?? 'The approver allowed the call.',
                ),
                ...(answer.updatedArgs !== undefined ? { updatedArgs: answer.updatedArgs } : {}),
              });
            } else {
              settle({
                decision: decide(
                  'deny',
                  'approval',
                  'approval.denied',
                  answer.message ?? 'The approver denied the call.',
                ),
              });
            }
          },
          (err: unknown) =>
            settle({
              decision: decide(
                'deny',
                'approval',
                'approval.error',
                `The approver failed: ${messageOf(err)}`,
              ),
            }),
        );
    });
  }

  #finish(
    call: ToolCall,
    ctx: CallContext,
    started: number,
    time: Date,
    r: {
      status: CallStatus;
      decision: StageDecision;
      path: readonly StageDecision[];
      args: unknown;
      output?: unknown;
      error?: { code: string; message: string };
      reviewId?: string;
      notes?: readonly string[];
      sandbox?: SandboxProfile;
    },
  ): GatewayResult {
    const durationMs = performance.now() - started;
    // Time-ordered: the audit table is appended to at its end (see uuidV7).
    const auditId = uuidV7(time.getTime());
    const modelContent = renderModelContent(call.name, r.status, r.decision, r, r.path);
    const decided = decidedBy(r.status, r.path);
    const logged = this.#loggedArgs(call, r.args);
    const record: AuditRecord = {
      id: auditId,
      time: time.toISOString(),
      tenant: ctx.identity.tenant,
      user: ctx.identity.user,
      sessionId: ctx.sessionId,
      agent: ctx.agent?.name ?? 'main',
      domain: ctx.domain ?? 'main',
      tool: call.name,
      callId: call.id,
      argsHash: safeHash(r.args),
      status: r.status,
      decisionPath: withoutArgs(r.path),
      resultSummary: auditSummary(r),
      durationMs,
      ...(ctx.watermark ? { watermark: ctx.watermark } : {}),
      ...(ctx.taskId ? { taskId: ctx.taskId } : {}),
      ...(r.sandbox ? { sandbox: r.sandbox } : {}),
      ...(decided ? { decidedBy: decided } : {}),
      ...(logged ? { args: logged.args, argsLevel: logged.level } : {}),
      ...(r.reviewId || this.#replays.has(call) ? { reviewId: r.reviewId ?? this.#replays.get(call) } : {}),
    };
    try {
      this.#audit.record(record);
    } catch {
      // AuditSink.record must not throw; if one does, the decision still stands.
    }
    return {
      callId: call.id,
      tool: call.name,
      status: r.status,
      decision: r.decision,
      path: r.path,
      ...(r.status === 'executed' ? { output: r.output } : {}),
      ...(r.error ? { error: r.error } : {}),
      modelContent,
      durationMs,
      ...(r.reviewId ? { reviewId: r.reviewId } : {}),
      auditId,
    };
  }

  /** The arguments as the decision log keeps them; a failure keeps the hash only, never raw values. */
  #loggedArgs(call: ToolCall, args: unknown): AuditArguments | undefined {
    if (!this.#auditArgs) return undefined;
    const tool = this.#tools.get(call.name);
    if (!tool) return undefined;
    try {
      return this.#auditArgs(tool, args);
    } catch {
      return undefined;
    }
  }
}

function auditSummary(r: {
  status: CallStatus;
  decision: StageDecision;
  output?: unknown;
  error?: { code: string; message: string };
  reviewId?: string;
  notes?: readonly string[];
}): string {
  let text: string;
  if (r.status === 'executed') text = summariseOutput(r.output);
  else if (r.error) text = `${r.error.code}: ${r.error.message}`;
  else if (r.status === 'review') text = `queued for review ${r.reviewId}`;
  else text = `${r.decision.stage}/${r.decision.ruleId}`;
  if (r.notes?.length) text += ` notes: ${r.notes.join('; ')}`;
  return text.slice(0, 300);
}

/**
 * The decision path as the audit keeps it: rewritten arguments are dropped, because the audit
 * holds only a hash of the arguments, never their values.
 */
export function withoutArgs(path: readonly StageDecision[]): readonly StageDecision[] {
  if (!path.some((d) => d.updatedArgs !== undefined)) return path;
  return path.map((d) => {
    if (d.updatedArgs === undefined) return d;
    const { updatedArgs: _dropped, ...rest } = d;
    return rest;
  });
}

function safeHash(args: unknown): string {
  try {
    return hashCanonical(args ?? null);
  } catch {
    return 'unhashable';
  }
}

/** The last sandbox grant a stage put on the path (a later stage may narrow an earlier one). */
function sandboxGrantOf(path: readonly StageDecision[]): SandboxGrant | undefined {
  for (let i = path.length - 1; i >= 0; i--) {
    const grant = path[i]!.sandbox;
    if (grant) return grant;
  }
  return undefined;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
