import { randomUUID } from 'node:crypto';
import type { Identity } from '../../core/index.js';
import type { CallContext, GatewayResult, ToolCall } from '../../gateway/index.js';
import type { EndedReview } from '../../review/index.js';
import { StoredStateError, type TaskRecord, type TaskRepository } from '../../store/index.js';
import type { ToolSpec } from '../../tools/index.js';
import type { RecentSummaries } from '../context/recent-summaries.js';
import type { LineEventSink } from '../events.js';
import { AnswerComposer } from './answer-composer.js';
import { LeaseRunner } from './lease-runner.js';
import { ParkedReviews } from './parked-reviews.js';
import { PlanReviser } from './plan-reviser.js';
import type { PlannerPort } from './planner.js';
import { StepExecutor } from './step-executor.js';
import { StepWalker } from './step-walker.js';
import { SummaryPublisher } from './summary-publisher.js';
import { stepLedger, TaskFinisher } from './task-ending.js';
import { TaskPlanner, type TaskPlannerDeps } from './task-planner.js';
import type { DeepRunResult, TaskRun } from './task-run.js';
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
  readonly degrade?: TaskPlannerDeps['degrade'];
}

/** How one run of a task is driven; every field may be left out. */
export interface DeepRunOptions {
  /** Receives the task's events (plan, steps). */
  readonly emit?: LineEventSink;
  /** Aborts the run; the task stays resumable (`interrupted`). */
  readonly signal?: AbortSignal | undefined;
  /** This run's planner (e.g. the model a request chose); default: the line's own. */
  readonly planner?: PlannerPort | undefined;
}

/**
 * The deep line (docs/lines.md, "Deep line"): planner → plan → executor step by step, every step persisted
 * before and after it runs, raw outputs in the store and only structured summaries in the model's
 * context. A task survives a crash: a restarted process (or another one) takes the lease and
 * continues from the last completed step; a side-effecting step records its idempotency key before
 * it runs, so it runs at most once. This class drives a task; planning, steps, revision, the
 * answer, the end and parked reviews are each their own piece.
 */
export class DeepLine {
  readonly #leases: LeaseRunner;
  readonly #planner: TaskPlanner;
  readonly #walker: StepWalker;
  readonly #composer: AnswerComposer;
  readonly #finisher: TaskFinisher;
  readonly #parked: ParkedReviews;
  /** Tasks accepted here whose run has not started yet (they wait in the line's queue). */
  readonly #accepted = new Set<string>();

  constructor(private readonly deps: DeepLineDeps) {
    const now = () => deps.now?.() ?? new Date();
    this.#leases = new LeaseRunner(
      deps.owner ?? `deep-${process.pid}-${randomUUID().slice(0, 8)}`,
      deps.leaseMs ?? 30_000,
      now,
    );
    const { gateway, tools, allowlist } = deps;
    this.#planner = new TaskPlanner({ tools, allowlist, ...(deps.degrade ? { degrade: deps.degrade } : {}) });
    this.#walker = new StepWalker(
      new StepExecutor({ gateway, tools, allowlist, now }),
      new PlanReviser(deps.summaryCap),
    );
    this.#composer = new AnswerComposer(deps.summaryCap);
    this.#finisher = new TaskFinisher(new SummaryPublisher(deps.context));
    this.#parked = new ParkedReviews({
      tasksFor: deps.tasksFor,
      ...(deps.reviewOutcome ? { reviewOutcome: deps.reviewOutcome } : {}),
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
    options: DeepRunOptions = {},
  ): Promise<DeepRunResult | undefined> {
    this.#accepted.delete(taskId);
    const tasks = this.deps.tasksFor(tenant);
    const result = await this.#leases.run(tasks, taskId, async () => {
      for (;;) {
        const ran = await this.#drive(tasks, taskId, options);
        // The review may have been settled while the task was parking, by someone who then found
        // no parked task to wake. Holding the lease, this run picks the decision up itself.
        if (ran.outcome !== 'review' || !(await this.#parked.settle(tenant, taskId))) return ran;
      }
    });
    // Someone moved the parked task on while this run still held it, and their own run stood
    // aside for ours: now that it is released, drive it (or see that another run already does).
    if (result?.outcome === 'review' && (await tasks.getTask(taskId))?.status === 'queued')
      return this.run(tenant, taskId, options);
    return result;
  }

  /** The review a parked task waits for, if it waits for one. */
  awaitedReview(task: TaskRecord): string | undefined {
    return this.#parked.awaitedReview(task);
  }

  /**
   * Lets a parked task continue when its review has ended, however it ended (approved and run,
   * denied, expired, decided by a rule or by another process). True when the task may run again.
   */
  settleParked(tenant: string, taskId: string): Promise<boolean> {
    return this.#parked.settle(tenant, taskId);
  }

  /**
   * Records the outcome of a reviewed step and lets the task continue on its next run; true only
   * for the caller whose conditional update moved the task on (`ParkedReviews.resolve`).
   */
  resolveReview(
    tenant: string,
    taskId: string,
    outcome: { reviewId: string } & EndedReview,
  ): Promise<boolean> {
    return this.#parked.resolve(tenant, taskId, outcome);
  }

  /** One pass while holding the lease: plan if need be, walk the steps, compose, end. */
  async #drive(tasks: TaskRepository, taskId: string, options: DeepRunOptions): Promise<DeepRunResult> {
    const task = await tasks.getTask(taskId);
    if (!task) throw new Error(`task ${taskId} not found`);
    let state = stateOf(task);
    const identity = this.deps.resolveIdentity(task.tenant, task.user);
    if (!identity) {
      const text = `User ${task.tenant}/${task.user} no longer exists.`;
      return this.#finisher.end({ tasks, task, state, outcome: 'denied', text });
    }
    if (state.outcome && state.final !== undefined) {
      return { taskId, outcome: state.outcome, text: state.final, ...(await stepLedger(tasks, taskId)) };
    }

    const planner =
      options.planner ?? (typeof this.deps.planner === 'function' ? this.deps.planner() : this.deps.planner);
    const run: TaskRun = {
      tasks,
      task,
      identity,
      planner,
      emit: options.emit ?? (() => {}),
      signal: options.signal,
    };
    if (!state.plan) {
      const planning = await this.#planner.plan(run, state);
      if (!planning.planned) {
        const { outcome, text, ticketId } = planning;
        const ended = await this.#finisher.end({ tasks, task, state: planning.state, outcome, text });
        return { ...ended, ...(ticketId ? { ticketId } : {}) };
      }
      state = planning.state;
    } else {
      await tasks.updateTask(taskId, { status: 'running' });
    }
    const walked = await this.#walker.walk(run, state);
    if ('stopped' in walked) return walked.stopped;
    const answer = await this.#composer.compose(run, walked);
    return this.#finisher.end({ tasks, task, state: answer.state, outcome: 'completed', text: answer.text });
  }
}

/** A task's state as stored; a task written without one is a `StoredStateError` naming it. */
function stateOf(task: TaskRecord): TaskState {
  const state = readTaskState(task);
  if (!state)
    throw new StoredStateError({ kind: 'task state', row: task.id, field: 'tasks.plan' }, 'missing');
  return state;
}
