import type { Identity } from '../../core/index.js';
import type { CallContext, GatewayResult, ToolCall } from '../../gateway/index.js';
import type { ShingleLedger } from '../../policy/index.js';
import type { StepRecord, TaskRecord, TaskRepository } from '../../store/index.js';
import type { ToolSpec } from '../../tools/index.js';
import type { LineEventSink } from '../events.js';
import type { Plan, PlanStep } from './plan.js';
import { gatewayStep, hasSideEffects, type StepOutcome, stepLine, stepStart } from './step-machine.js';
import type { StepSummary } from './step-summary.js';
import { storedTaskState, type TaskState } from './task-state.js';

/** Everything one run of a task hands each of its steps. */
export interface StepContext {
  readonly tasks: TaskRepository;
  readonly task: TaskRecord;
  /** The requester as the directory knows them now. */
  readonly identity: Identity;
  readonly state: TaskState;
  readonly plan: Plan;
  readonly emit: LineEventSink;
  /** Text that came from tools, for the intent stage's third-party check. */
  readonly ledger: ShingleLedger;
  readonly signal?: AbortSignal | undefined;
}

/** The step a write is about: its number and its planned call. */
interface StepAt {
  readonly step: PlanStep;
  readonly stepNo: number;
}

/** What the executor needs: the deep line's gateway and its own tools. */
export interface StepExecutorDeps {
  readonly gateway: { invoke(call: ToolCall, ctx: CallContext): Promise<GatewayResult> };
  readonly tools: { get(name: string): ToolSpec | undefined };
  readonly allowlist: ReadonlySet<string>;
  readonly now: () => Date;
}

/**
 * Runs one planned step through the deep line's gateway (docs/lines.md, "Deep line"): the step is
 * written `running` (with its idempotency key, for a side effect) before the call, and its outcome
 * after it — a result's raw output in the store and only its summary in the record; a call that
 * waits for review parks the task on that review.
 */
export class StepExecutor {
  constructor(private readonly deps: StepExecutorDeps) {}

  async run(ctx: StepContext, stepNo: number, record: StepRecord | undefined): Promise<StepOutcome> {
    const { tasks, task, plan, emit } = ctx;
    const step = plan.steps[stepNo - 1]!;
    const tool = this.deps.tools.get(step.tool);
    const sideEffects = hasSideEffects(tool);
    const key = `${task.id}:${stepNo}`;
    const startedAt = this.deps.now().toISOString();
    emit({ type: 'step_started', taskId: task.id, stepNo, tool: step.tool, goal: step.goal });

    const start = stepStart(step, record, tool, this.deps.allowlist);
    if (!start.run) {
      return this.#finish(ctx, { step, stepNo }, start.status, {
        error: start.error,
        startedAt: start.status === 'skipped' ? (record?.startedAt ?? startedAt) : startedAt,
        ...(start.status === 'skipped' ? { idempotencyKey: key } : {}),
      });
    }
    await tasks.upsertStep({
      taskId: task.id,
      stepNo,
      status: 'running',
      goal: step.goal,
      tool: step.tool,
      params: step.args,
      ...(sideEffects ? { idempotencyKey: key } : {}),
      startedAt,
    });
    if (sideEffects) await tasks.recordIdempotencyKey(key, { taskId: task.id, stepNo });

    const result = await this.deps.gateway.invoke(
      { id: `${task.id}-s${stepNo}`, name: step.tool, arguments: step.args },
      {
        identity: ctx.identity,
        sessionId: ctx.state.sessionId,
        domain: 'deep',
        taskId: task.id,
        declaredCapabilities: plan.capabilities,
        thirdPartyText: ctx.ledger,
        ...(sideEffects ? { idempotencyKey: key } : {}),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      },
    );
    const next = gatewayStep(step, result);
    if (next.status === 'done') {
      const { id: rawRef } = await tasks.putRawOutput({
        taskId: task.id,
        stepNo,
        content: JSON.stringify(next.output ?? null),
      });
      return this.#finish(ctx, { step, stepNo }, 'done', {
        summary: next.summary,
        rawOutputRef: rawRef,
        startedAt,
        paramsValidated: true,
        ...(sideEffects ? { idempotencyKey: key } : {}),
      });
    }
    if (next.status === 'review') return this.#park(ctx, { step, stepNo, startedAt }, next);
    return this.#finish(ctx, { step, stepNo }, 'failed', {
      error: next.error,
      startedAt,
      ...(sideEffects ? { idempotencyKey: key } : {}),
    });
  }

  /** The step waits for its review; the task is parked on it until the review ends. */
  async #park(
    ctx: StepContext,
    at: StepAt & { readonly startedAt: string },
    review: { readonly reviewId: string; readonly message: string },
  ): Promise<StepOutcome> {
    const { tasks, task } = ctx;
    const { step, stepNo, startedAt } = at;
    const { reviewId, message } = review;
    await tasks.upsertStep({
      taskId: task.id,
      stepNo,
      status: 'pending',
      goal: step.goal,
      tool: step.tool,
      params: step.args,
      paramsValidated: true,
      error: `awaiting review ${reviewId}`,
      startedAt,
    });
    await tasks.updateTask(task.id, {
      status: 'awaiting_review',
      plan: storedTaskState({ ...ctx.state, awaitingReview: { stepNo, reviewId } }),
    });
    ctx.emit({
      type: 'step_finished',
      taskId: task.id,
      stepNo,
      tool: step.tool,
      status: 'review',
      summary: message,
    });
    return { status: 'review', summary: message, reviewId };
  }

  async #finish(
    ctx: StepContext,
    { step, stepNo }: StepAt,
    status: 'done' | 'failed' | 'skipped',
    extra: {
      summary?: StepSummary;
      rawOutputRef?: string;
      error?: string;
      startedAt: string;
      paramsValidated?: boolean;
      idempotencyKey?: string;
    },
  ): Promise<StepOutcome> {
    const line = stepLine(stepNo, step, status, extra);
    await ctx.tasks.upsertStep({
      taskId: ctx.task.id,
      stepNo,
      status,
      goal: step.goal,
      tool: step.tool,
      params: step.args,
      paramsValidated: extra.paramsValidated ?? false,
      outputSummary: line,
      ...(extra.rawOutputRef ? { rawOutputRef: extra.rawOutputRef } : {}),
      ...(extra.idempotencyKey ? { idempotencyKey: extra.idempotencyKey } : {}),
      ...(extra.error ? { error: extra.error } : {}),
      startedAt: extra.startedAt,
      finishedAt: this.deps.now().toISOString(),
    });
    ctx.emit({ type: 'step_finished', taskId: ctx.task.id, stepNo, tool: step.tool, status, summary: line });
    return { status, summary: line };
  }
}
