import { randomUUID } from 'node:crypto';
import { modelFailureSentence, ProviderError } from '../../agent/index.js';
import type { Identity } from '../../core/index.js';
import type { CallContext, GatewayResult, ToolCall } from '../../gateway/index.js';
import { declaredCapabilities, ShingleLedger } from '../../policy/index.js';
import type { EndedReview } from '../../review/index.js';
import { StoredStateError, type TaskRecord, type TaskRepository } from '../../store/index.js';
import type { ToolSpec } from '../../tools/index.js';
import type { RecentSummaries } from '../context/recent-summaries.js';
import type { LineEventSink, RequestOutcome } from '../events.js';
import { LeaseRunner } from './lease-runner.js';
import { type Plan, PlanFormatError, parsePlan, parseRevision } from './plan.js';
import type { PlannerPort } from './planner.js';
import { renderRelevantSummaries, type SummaryEntry } from './relevant-summaries.js';
import { StepExecutor } from './step-executor.js';
import { isFinished, reviewedStep, shouldRevise } from './step-machine.js';
import { readTaskState, storedTaskState, type TaskState } from './task-state.js';

/** What the deep line needs from the rest of the runtime. */
export interface DeepLineDeps {
  /** Tenant-scoped task repository factory (`store.forTenant(t).tasks`). */
  readonly tasksFor: (tenant: string) => TaskRepository;
  readonly gateway: { invoke(call: ToolCall, ctx: CallContext): Promise<GatewayResult> };
  readonly tools: { get(name: string): ToolSpec | undefined };
  /** The deep line's tool allowlist (its own trust chain). */
  readonly allowlist: ReadonlySet<string>;
  /**
   * The planner of one task run. A factory gets a fresh planner per run, so a deterministic
   * (scripted) model replays per task and a resumed task finds its place in the script.
   */
  readonly planner: PlannerPort | (() => PlannerPort);
  /** Re-resolves identity on resume: roles come from the directory now, not from the task row. */
  readonly resolveIdentity: (tenant: string, user: string) => Identity | undefined;
  /** This process, for task leases. */
  readonly owner?: string;
  readonly leaseMs?: number;
  readonly now?: () => Date;
  /** The context bus as lines use it: a finished task publishes a one-line summary. */
  readonly context?: RecentSummaries;
  /** Most step summaries the composing prompt gets (default 10; failures and anomalies first). */
  readonly summaryCap?: number;
  /**
   * How a review ended, or undefined while it is still open. With it a run that parks on a review
   * already settled (a reviewer was faster than the task could park) continues at once.
   */
  readonly reviewOutcome?: (tenant: string, reviewId: string) => Promise<EndedReview | undefined>;
  /**
   * The degraded path, for a plan the model service could not give (down, timing out, errors):
   * a retrieval answer and a ticket. Without it such a task just fails.
   */
  readonly degrade?: (
    identity: Identity,
    request: string,
    failure: { sessionId: string; reason: string; detail?: string },
  ) => Promise<{ text: string; ticketId?: string }>;
}

/** One run of a task: what its planning, steps and revisions share. */
interface TaskRun {
  readonly tasks: TaskRepository;
  readonly task: TaskRecord;
  readonly identity: Identity;
  readonly planner: PlannerPort;
  readonly emit: LineEventSink;
  readonly signal?: AbortSignal | undefined;
}

export interface DeepRunResult {
  readonly taskId: string;
  readonly outcome: RequestOutcome;
  readonly text: string;
  readonly executed: readonly string[];
  readonly denied: readonly string[];
  /** The ticket of a task answered on the degraded path. */
  readonly ticketId?: string;
}

/**
 * The deep line (docs/lines.md, "Deep line"): planner → plan → executor step by step, every step persisted
 * before and after it runs, raw outputs in the store and only structured summaries in the model's
 * context. A task survives a crash: a restarted process (or another one) takes the lease and
 * continues from the last completed step; a side-effecting step records its idempotency key before
 * it runs, so it runs at most once.
 */
export class DeepLine {
  readonly #leases: LeaseRunner;
  readonly #steps: StepExecutor;
  /** Tasks accepted here whose run has not started yet (they wait in the line's queue). */
  readonly #accepted = new Set<string>();

  constructor(private readonly deps: DeepLineDeps) {
    const now = () => this.#now();
    this.#leases = new LeaseRunner(
      deps.owner ?? `deep-${process.pid}-${randomUUID().slice(0, 8)}`,
      deps.leaseMs ?? 30_000,
      now,
    );
    this.#steps = new StepExecutor({
      gateway: deps.gateway,
      tools: deps.tools,
      allowlist: deps.allowlist,
      now,
    });
  }

  /** Persists a new task (queued) and returns its id. */
  async accept(identity: Identity, request: string, sessionId: string): Promise<string> {
    const state: TaskState = { sessionId, plannerTurns: 0 };
    const { id } = await this.deps.tasksFor(identity.tenant).createTask({
      tenant: identity.tenant,
      user: identity.user,
      line: 'deep',
      request,
      status: 'queued',
      plan: storedTaskState(state),
    });
    this.#accepted.add(id);
    return id;
  }

  /**
   * True while this process has the task in hand: accepted and waiting for its run, or being
   * driven. A sweep for orphaned tasks leaves such a task alone.
   */
  handles(taskId: string): boolean {
    return this.#accepted.has(taskId) || this.#leases.holds(taskId);
  }

  /**
   * Runs (or resumes) a task to its end. Returns undefined when another process holds the lease.
   * Never throws for a tool's failure: a failed or denied step is a result.
   */
  async run(
    tenant: string,
    taskId: string,
    emit: LineEventSink = () => {},
    signal?: AbortSignal,
    /** This run's planner (e.g. the model a request chose); default: the line's own. */
    planner?: PlannerPort,
  ): Promise<DeepRunResult | undefined> {
    this.#accepted.delete(taskId);
    const tasks = this.deps.tasksFor(tenant);
    const result = await this.#runHoldingLease(tasks, tenant, taskId, emit, signal, planner);
    // Someone moved the parked task on while this run still held it, and their own run stood
    // aside for ours: now that it is released, drive it (or see that another run already does).
    if (result?.outcome === 'review' && (await tasks.getTask(taskId))?.status === 'queued')
      return this.run(tenant, taskId, emit, signal, planner);
    return result;
  }

  /** Drives the task while holding its lease, until it ends or parks on a review still open. */
  #runHoldingLease(
    tasks: TaskRepository,
    tenant: string,
    taskId: string,
    emit: LineEventSink,
    signal?: AbortSignal,
    planner?: PlannerPort,
  ): Promise<DeepRunResult | undefined> {
    return this.#leases.run(tasks, taskId, async () => {
      for (;;) {
        const result = await this.#drive(tasks, taskId, emit, signal, planner);
        // The review may have been settled while the task was parking, by someone who then found
        // no parked task to wake. Holding the lease, this run picks the decision up itself.
        if (result.outcome !== 'review' || !(await this.settleParked(tenant, taskId))) return result;
      }
    });
  }

  async #drive(
    tasks: TaskRepository,
    taskId: string,
    emit: LineEventSink,
    signal?: AbortSignal,
    chosen?: PlannerPort,
  ): Promise<DeepRunResult> {
    const task = await tasks.getTask(taskId);
    if (!task) throw new Error(`task ${taskId} not found`);
    let state = this.#stateOf(task);
    const identity = this.deps.resolveIdentity(task.tenant, task.user);
    if (!identity)
      return this.#end(tasks, task, state, 'denied', `User ${task.tenant}/${task.user} no longer exists.`);
    if (state.outcome && state.final !== undefined) {
      return { taskId, outcome: state.outcome, text: state.final, ...(await this.#ledger(tasks, taskId)) };
    }

    const planner =
      chosen ?? (typeof this.deps.planner === 'function' ? this.deps.planner() : this.deps.planner);
    const run: TaskRun = { tasks, task, identity, planner, emit, signal };
    if (!state.plan) {
      const planned = await this.#plan(run, state);
      if (planned.ended) return planned.ended;
      state = planned.state;
    } else {
      await tasks.updateTask(taskId, { status: 'running' });
    }

    let plan = state.plan!;
    const steps = await tasks.getSteps(taskId);
    const ledger = new ShingleLedger();
    ledger.addTrusted(task.request);
    const summaries: SummaryEntry[] = [];
    for (const s of steps)
      if (s.status !== 'pending' && s.outputSummary)
        summaries.push({
          stepNo: s.stepNo,
          tool: s.tool ?? '',
          goal: s.goal,
          status: s.status,
          line: s.outputSummary,
        });

    for (let i = 0; i < plan.steps.length; i++) {
      if (signal?.aborted) {
        await tasks.updateTask(taskId, { status: 'interrupted' });
        return {
          taskId,
          outcome: 'failed',
          text: 'Interrupted; the task can be resumed.',
          ...(await this.#ledger(tasks, taskId)),
        };
      }
      const stepNo = i + 1;
      const record = steps.find((s) => s.stepNo === stepNo);
      if (isFinished(record)) continue;
      const step = plan.steps[i]!;
      const outcome = await this.#steps.run({ ...run, state, plan, ledger }, stepNo, record);
      if (outcome.status === 'review') {
        return {
          taskId,
          outcome: 'review',
          text: `Step ${stepNo} (${step.tool}) awaits review.`,
          ...(await this.#ledger(tasks, taskId)),
        };
      }
      summaries.push({
        stepNo,
        tool: step.tool,
        goal: step.goal,
        status: outcome.status,
        line: outcome.summary,
      });
      await tasks.updateTask(taskId, { currentStep: stepNo });
      if (shouldRevise(outcome, state.revisions, planner.revise !== undefined)) {
        ({ plan, state } = await this.#revise(run, plan, state, stepNo, summaries));
      }
    }

    let text: string;
    try {
      // Only the relevant summaries reach the model; every raw output stays in the store.
      const relevant = renderRelevantSummaries(
        `${task.request} ${plan.goal}`,
        summaries,
        this.deps.summaryCap,
      );
      text = await planner.compose(task.request, plan, relevant, state.plannerTurns, signal);
      state = { ...state, plannerTurns: state.plannerTurns + 1 };
    } catch {
      text = composeReport(
        plan,
        summaries.map((s) => s.line),
      );
    }
    return this.#end(tasks, task, state, 'completed', text);
  }

  /**
   * Plans the task: the planner's plan, its capabilities cut to what the request asks for, every
   * step written pending. The state with the plan, or the task's end when no plan could be had.
   */
  async #plan(
    run: TaskRun,
    state: TaskState,
  ): Promise<{ state: TaskState; ended?: undefined } | { ended: DeepRunResult }> {
    const { tasks, task, identity, planner, emit, signal } = run;
    await tasks.updateTask(task.id, { status: 'planning' });
    let plan: Plan;
    try {
      const answer = await planner.plan(task.request, this.#declarations(), state.plannerTurns, signal);
      state = { ...state, plannerTurns: state.plannerTurns + 1 };
      plan = parsePlan(answer);
    } catch (err) {
      if (err instanceof ProviderError && this.deps.degrade) {
        const answer = await this.deps.degrade(identity, task.request, {
          sessionId: state.sessionId,
          reason: modelFailureSentence(err.failure),
          detail: `${err.message}${err.detail ? `: ${err.detail}` : ''}`,
        });
        const ended = await this.#end(tasks, task, state, 'degraded', answer.text);
        return { ended: { ...ended, ...(answer.ticketId ? { ticketId: answer.ticketId } : {}) } };
      }
      const why =
        err instanceof PlanFormatError
          ? `The planner's plan was unusable: ${err.message}`
          : err instanceof ProviderError
            ? `The task could not be planned: ${modelFailureSentence(err.failure)}.`
            : (err as Error).message;
      return { ended: await this.#end(tasks, task, state, 'failed', why) };
    }
    // The declaration is fixed now, before any tool output is read, and only with what the
    // user's own words ask for: a model cannot grant itself a capability (docs/architecture.md, "Capabilities from the user's words").
    plan = { ...plan, capabilities: grantedCapabilities(plan.capabilities, task.request, this.deps.tools) };
    state = { ...state, plan };
    // Steps are written before any runs, so the console shows the whole plan from the start.
    for (const [i, step] of plan.steps.entries()) {
      await tasks.upsertStep({
        taskId: task.id,
        stepNo: i + 1,
        status: 'pending',
        goal: step.goal,
        tool: step.tool,
        params: step.args,
      });
    }
    await tasks.updateTask(task.id, { status: 'running', plan: storedTaskState(state), currentStep: 0 });
    emit({
      type: 'plan',
      taskId: task.id,
      capabilities: plan.capabilities,
      steps: plan.steps.map((s, i) => ({ stepNo: i + 1, goal: s.goal, tool: s.tool })),
    });
    return { state };
  }

  /**
   * The executor reports a failed step back to the planner, which may replace the remaining steps
   * (docs/lines.md, "Deep line"). The declared capabilities stay as fixed at planning time: a revision cannot
   * add a high-risk tool. An answer that is not a revision keeps the plan as it is.
   */
  async #revise(
    run: TaskRun,
    plan: Plan,
    state: TaskState,
    stepNo: number,
    summaries: readonly SummaryEntry[],
  ): Promise<{ plan: Plan; state: TaskState }> {
    const { tasks, task, planner, emit, signal } = run;
    const relevant = renderRelevantSummaries(`${task.request} ${plan.goal}`, summaries, this.deps.summaryCap);
    let answer: string | undefined;
    try {
      answer = await planner.revise!(task.request, plan, relevant, stepNo, state.plannerTurns, signal);
    } catch {
      return { plan, state };
    }
    state = { ...state, plannerTurns: state.plannerTurns + 1, revisions: (state.revisions ?? 0) + 1 };
    const steps = parseRevision(answer);
    if (!steps) {
      await tasks.updateTask(task.id, { plan: storedTaskState(state) });
      return { plan, state };
    }
    const previous = plan.steps.length;
    plan = { ...plan, steps: [...plan.steps.slice(0, stepNo), ...steps].slice(0, 60) };
    state = { ...state, plan };
    for (let n = stepNo + 1; n <= Math.max(previous, plan.steps.length); n++) {
      const next = plan.steps[n - 1];
      await tasks.upsertStep(
        next
          ? {
              taskId: task.id,
              stepNo: n,
              status: 'pending',
              goal: next.goal,
              tool: next.tool,
              params: next.args,
            }
          : {
              taskId: task.id,
              stepNo: n,
              status: 'skipped',
              goal: 'replaced by a revised plan',
              error: 'plan revised',
            },
      );
    }
    await tasks.updateTask(task.id, { plan: storedTaskState(state) });
    emit({
      type: 'plan',
      taskId: task.id,
      capabilities: plan.capabilities,
      steps: plan.steps.map((s, i) => ({ stepNo: i + 1, goal: s.goal, tool: s.tool })),
    });
    return { plan, state };
  }

  /** The review a parked task waits for, if it waits for one. */
  awaitedReview(task: TaskRecord): string | undefined {
    return task.status === 'awaiting_review' ? readTaskState(task)?.awaitingReview?.reviewId : undefined;
  }

  /**
   * Lets a parked task continue when its review has ended, however it ended (approved and run,
   * denied, expired, decided by a rule or by another process). True when the task may run again.
   */
  async settleParked(tenant: string, taskId: string): Promise<boolean> {
    const task = await this.deps.tasksFor(tenant).getTask(taskId);
    const reviewId = task && this.awaitedReview(task);
    const outcome = reviewId && (await this.deps.reviewOutcome?.(tenant, reviewId));
    return outcome ? this.resolveReview(tenant, taskId, { reviewId, ...outcome }) : false;
  }

  /**
   * Records the outcome of a reviewed step (after a reviewer approved and the call ran, or was
   * denied) and lets the task continue on its next run. Several parties may learn of the same
   * outcome at once (the approver, the parked run, a sweep in another process): the task moves on
   * in one conditional update, and only the caller whose update applied gets true.
   */
  async resolveReview(
    tenant: string,
    taskId: string,
    outcome: { reviewId: string } & EndedReview,
  ): Promise<boolean> {
    const tasks = this.deps.tasksFor(tenant);
    const task = await tasks.getTask(taskId);
    const state = task && readTaskState(task);
    const wait = state?.awaitingReview;
    if (!task || this.awaitedReview(task) !== outcome.reviewId || !state?.plan || !wait) return false;
    const step = state.plan.steps[wait.stepNo - 1]!;
    // The step first: whoever wins the update below, the task must never be runnable with the
    // reviewed step still pending, or the call would be proposed (and reviewed) a second time.
    await tasks.upsertStep({
      taskId,
      stepNo: wait.stepNo,
      goal: step.goal,
      tool: step.tool,
      params: step.args,
      paramsValidated: true,
      ...reviewedStep(wait.stepNo, step, outcome),
      finishedAt: this.#now().toISOString(),
    });
    const { awaitingReview: _done, ...rest } = state;
    const { changed } = await tasks.updateTask(
      taskId,
      { status: 'queued', plan: storedTaskState(rest), currentStep: wait.stepNo },
      { status: 'awaiting_review', updatedAt: task.updatedAt },
    );
    return changed;
  }

  async #end(
    tasks: TaskRepository,
    task: TaskRecord,
    state: TaskState,
    outcome: RequestOutcome,
    text: string,
  ): Promise<DeepRunResult> {
    await tasks.updateTask(task.id, {
      status: outcome === 'completed' ? 'completed' : outcome,
      plan: storedTaskState({ ...state, outcome, final: text }),
    });
    await this.#publishEnd(task, state, outcome).catch(() => {});
    return { taskId: task.id, outcome, text, ...(await this.#ledger(tasks, task.id)) };
  }

  async #ledger(tasks: TaskRepository, taskId: string): Promise<{ executed: string[]; denied: string[] }> {
    const steps = await tasks.getSteps(taskId);
    return {
      executed: steps.filter((s) => s.status === 'done' && s.tool).map((s) => s.tool as string),
      denied: steps.filter((s) => s.status === 'failed' && s.tool).map((s) => s.tool as string),
    };
  }

  /** "task X completed: <goal>" on the context bus — the goal, never the results. */
  async #publishEnd(task: TaskRecord, state: TaskState, outcome: RequestOutcome): Promise<void> {
    if (!this.deps.context || (outcome !== 'completed' && outcome !== 'failed')) return;
    const goal = state.plan?.goal ?? task.request;
    const summary = `task ${task.id} ${outcome}: ${goal.replace(/\s+/g, ' ').slice(0, 160)}`;
    const base = {
      tenant: task.tenant,
      user: task.user,
      fromLine: 'deep' as const,
      kind: `task.${outcome}`,
      refs: [`task:${task.id}`],
    };
    // A goal the bus refuses (personal data in it) leaves only the task id.
    if (!(await this.deps.context.publish({ ...base, summary })))
      await this.deps.context.publish({ ...base, summary: `task ${task.id} ${outcome}` });
  }

  #declarations(): ToolSpec[] {
    return [...this.deps.allowlist]
      .map((n) => this.deps.tools.get(n))
      .filter((t): t is ToolSpec => t !== undefined);
  }

  /** A task's state as stored; a task written without one is a `StoredStateError` naming it. */
  #stateOf(task: TaskRecord): TaskState {
    const state = readTaskState(task);
    if (!state)
      throw new StoredStateError({ kind: 'task state', row: task.id, field: 'tasks.plan' }, 'missing');
    return state;
  }

  #now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}

/**
 * The capabilities a plan may keep: a declared tool with `intentKeywords` stays only when the
 * request says one of its phrases as whole words (`declaredCapabilities`); unknown tools are dropped.
 */
export function grantedCapabilities(
  declared: readonly string[],
  request: string,
  tools: { get(name: string): ToolSpec | undefined },
): string[] {
  const known = declared.map((name) => tools.get(name)).filter((t): t is ToolSpec => t !== undefined);
  // Whole words and segmented Chinese, never a substring inside another word (docs/policy.md).
  const said = new Set(declaredCapabilities(request, known));
  return known
    .filter((tool) => !tool.intentKeywords || tool.intentKeywords.length === 0 || said.has(tool.name))
    .map((tool) => tool.name);
}

/** The report a task ends with when no model composes one: the goal and each step's summary. */
export function composeReport(plan: Plan, summaries: readonly string[]): string {
  return [`Goal: ${plan.goal}`, ...summaries].join('\n');
}
