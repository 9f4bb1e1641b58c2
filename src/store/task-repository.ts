import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { StoreDb, TaskStepsTable, TasksTable } from './database.js';
import { StoreError } from './errors.js';
import { checkStored, parseStoredJson } from './stored-state.js';
import { restrictToTenant, type TenantScope, tenantForWrite } from './tenant-scope.js';

/** Status of one planned step. */
export const STEP_STATUSES = ['pending', 'running', 'done', 'failed', 'skipped'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** A deep-line task: the request, its plan, where execution stands and who holds the lease. */
export interface TaskRecord {
  readonly id: string;
  readonly tenant: string;
  readonly user: string;
  readonly line: string;
  /** Free-form lifecycle owned by the deep line (e.g. planning, running, done, failed). */
  readonly status: string;
  readonly request: string;
  readonly plan: unknown;
  readonly currentStep: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly leaseOwner?: string;
  readonly leaseUntil?: string;
}

export interface NewTask {
  /** Required in the admin view; must match (or may be omitted) in a tenant-bound repository. */
  readonly tenant?: string;
  readonly user: string;
  readonly line: string;
  readonly request: string;
  readonly status?: string;
  readonly plan?: unknown;
}

export interface TaskPatch {
  readonly status?: string;
  readonly plan?: unknown;
  readonly currentStep?: number;
}

/** A compare-and-set guard: the update applies only while the task still looks like this. */
export interface TaskPrecondition {
  readonly status?: string;
  /** The `updatedAt` the caller read: no other write happened since. */
  readonly updatedAt?: string;
}

export interface StepRecord {
  readonly taskId: string;
  readonly stepNo: number;
  readonly status: StepStatus;
  readonly goal: string;
  readonly tool?: string;
  readonly params?: unknown;
  readonly paramsValidated: boolean;
  readonly idempotencyKey?: string;
  readonly outputSummary?: string;
  /** Id of the raw output (see `putRawOutput`); raw data never goes into context. */
  readonly rawOutputRef?: string;
  readonly error?: string;
  readonly startedAt?: string;
  readonly finishedAt?: string;
}

/** A step as written: omitted optional fields are stored as null. */
export type StepWrite = Omit<StepRecord, 'paramsValidated'> & { readonly paramsValidated?: boolean };

export interface TaskRepository {
  createTask(task: NewTask): Promise<{ id: string }>;
  getTask(id: string): Promise<TaskRecord | undefined>;
  /**
   * Newest first; default limit 100. `tenant` filters only in the admin view; `user` keeps only
   * that user's own tasks (before the limit applies).
   */
  listTasks(filter?: {
    tenant?: string;
    user?: string;
    status?: string;
    limit?: number;
  }): Promise<TaskRecord[]>;
  /** With `when`, one conditional UPDATE: `changed` is false if the task no longer matches it. */
  updateTask(id: string, patch: TaskPatch, when?: TaskPrecondition): Promise<{ changed: boolean }>;
  /** Insert or replace step (taskId, stepNo). Throws when the task is not in scope. */
  upsertStep(step: StepWrite): Promise<void>;
  /** Steps in step order. */
  getSteps(taskId: string): Promise<StepRecord[]>;
  /**
   * Records `key` before a side effect; true only the first time the key is seen in this tenant
   * (insert-or-ignore), so a retried or resumed step does not repeat its effect. In the admin view
   * the tenant comes from `ref.taskId`.
   */
  recordIdempotencyKey(key: string, ref?: { taskId?: string; stepNo?: number }): Promise<boolean>;
  putRawOutput(output: { taskId: string; stepNo: number; content: string }): Promise<{ id: string }>;
  getRawOutput(id: string): Promise<string | undefined>;
  /** Takes or renews the task's lease when free, expired or already ours; true when we hold it. */
  claimLease(taskId: string, owner: string, ttlMs: number, now?: Date): Promise<boolean>;
  /** Gives the lease up if we hold it. */
  releaseLease(taskId: string, owner: string): Promise<boolean>;
}

export function createTaskRepository(db: StoreDb, scope: TenantScope): TaskRepository {
  const selectTasks = (where: string, filter?: string) =>
    restrictToTenant(db.selectFrom('tasks').selectAll(), scope, where, filter);
  const updateTasks = (where: string) => restrictToTenant(db.updateTable('tasks'), scope, where);

  /** The tenant of a task in scope, or a typed error naming the task. */
  const tenantOfTask = async (taskId: string, where: string): Promise<string> => {
    const row = await restrictToTenant(db.selectFrom('tasks').select('tenant'), scope, where)
      .where('id', '=', taskId)
      .executeTakeFirst();
    if (!row)
      throw new StoreError('store.task-not-found', `no task ${JSON.stringify(taskId)} in scope`, { where });
    return row.tenant;
  };

  return {
    async createTask(task) {
      const tenant = tenantForWrite(scope, task.tenant, 'tasks.createTask');
      const id = randomUUID();
      const now = new Date().toISOString();
      await db
        .insertInto('tasks')
        .values({
          id,
          tenant,
          user_id: task.user,
          line: task.line,
          status: task.status ?? 'pending',
          request: task.request,
          plan: task.plan === undefined ? null : JSON.stringify(task.plan),
          current_step: 0,
          created_at: now,
          updated_at: now,
          lease_owner: null,
          lease_until: null,
        })
        .execute();
      return { id };
    },

    async getTask(id) {
      const row = await selectTasks('tasks.getTask').where('id', '=', id).executeTakeFirst();
      return row ? taskFromRow(row) : undefined;
    },

    async listTasks(filter = {}) {
      let q = selectTasks('tasks.listTasks', filter.tenant);
      if (filter.status !== undefined) q = q.where('status', '=', filter.status);
      if (filter.user !== undefined) q = q.where('user_id', '=', filter.user);
      const limit = Math.min(10_000, Math.max(1, Math.floor(filter.limit ?? 100)));
      const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      return rows.map(taskFromRow);
    },

    async updateTask(id, patch, when = {}) {
      let q = updateTasks('tasks.updateTask')
        .set({
          updated_at: new Date().toISOString(),
          ...(patch.status !== undefined ? { status: patch.status } : {}),
          ...(patch.plan !== undefined ? { plan: JSON.stringify(patch.plan) } : {}),
          ...(patch.currentStep !== undefined ? { current_step: patch.currentStep } : {}),
        })
        .where('id', '=', id);
      if (when.status !== undefined) q = q.where('status', '=', when.status);
      if (when.updatedAt !== undefined) q = q.where('updated_at', '=', when.updatedAt);
      const result = await q.executeTakeFirst();
      return { changed: Number(result.numUpdatedRows) === 1 };
    },

    async upsertStep(step) {
      const tenant = await tenantOfTask(step.taskId, 'tasks.upsertStep');
      const row: TaskStepsTable = {
        task_id: step.taskId,
        step_no: step.stepNo,
        tenant,
        status: step.status,
        goal: step.goal,
        tool: step.tool ?? null,
        params: step.params === undefined ? null : JSON.stringify(step.params),
        params_validated: step.paramsValidated ? 1 : 0,
        idempotency_key: step.idempotencyKey ?? null,
        output_summary: step.outputSummary ?? null,
        raw_output_ref: step.rawOutputRef ?? null,
        error: step.error ?? null,
        started_at: step.startedAt ?? null,
        finished_at: step.finishedAt ?? null,
      };
      const { task_id: _t, step_no: _s, tenant: _n, ...changes } = row;
      await db
        .insertInto('task_steps')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['task_id', 'step_no']).doUpdateSet(changes).where('task_steps.tenant', '=', tenant),
        )
        .execute();
    },

    async getSteps(taskId) {
      const rows = await restrictToTenant(db.selectFrom('task_steps').selectAll(), scope, 'tasks.getSteps')
        .where('task_id', '=', taskId)
        .orderBy('step_no', 'asc')
        .execute();
      return rows.map(stepFromRow);
    },

    async recordIdempotencyKey(key, ref = {}) {
      const tenant =
        scope.kind === 'tenant'
          ? scope.tenant
          : tenantForWrite(
              scope,
              ref.taskId ? await tenantOfTask(ref.taskId, 'tasks.recordIdempotencyKey') : undefined,
              'tasks.recordIdempotencyKey',
            );
      const inserted = await db
        .insertInto('idempotency_keys')
        .values({
          tenant,
          key,
          task_id: ref.taskId ?? null,
          step_no: ref.stepNo ?? null,
          created_at: new Date().toISOString(),
        })
        .onConflict((oc) => oc.columns(['tenant', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      return inserted !== undefined;
    },

    async putRawOutput(output) {
      const tenant = await tenantOfTask(output.taskId, 'tasks.putRawOutput');
      const id = randomUUID();
      await db
        .insertInto('raw_outputs')
        .values({
          id,
          task_id: output.taskId,
          step_no: output.stepNo,
          tenant,
          content: output.content,
          created_at: new Date().toISOString(),
        })
        .execute();
      return { id };
    },

    async getRawOutput(id) {
      const row = await restrictToTenant(
        db.selectFrom('raw_outputs').select('content'),
        scope,
        'tasks.getRawOutput',
      )
        .where('id', '=', id)
        .executeTakeFirst();
      return row?.content;
    },

    async claimLease(taskId, owner, ttlMs, now = new Date()) {
      const at = now.toISOString();
      const result = await updateTasks('tasks.claimLease')
        .set({ lease_owner: owner, lease_until: new Date(now.getTime() + ttlMs).toISOString() })
        .where('id', '=', taskId)
        .where((eb) =>
          eb.or([eb('lease_owner', 'is', null), eb('lease_owner', '=', owner), eb('lease_until', '<', at)]),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async releaseLease(taskId, owner) {
      const result = await updateTasks('tasks.releaseLease')
        .set({ lease_owner: null, lease_until: null })
        .where('id', '=', taskId)
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

function taskFromRow(row: TasksTable): TaskRecord {
  return {
    id: row.id,
    tenant: row.tenant,
    user: row.user_id,
    line: row.line,
    status: row.status,
    request: row.request,
    // The deep line reads it (src/lines/deep/task-state.ts); here it need only be JSON.
    plan:
      row.plan === null
        ? undefined
        : parseStoredJson(row.plan, { kind: 'task', row: row.id, field: 'tasks.plan' }),
    currentStep: Number(row.current_step),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.lease_owner !== null ? { leaseOwner: row.lease_owner } : {}),
    ...(row.lease_until !== null ? { leaseUntil: row.lease_until } : {}),
  };
}

function stepFromRow(row: TaskStepsTable): StepRecord {
  return {
    taskId: row.task_id,
    stepNo: Number(row.step_no),
    status: checkStored(z.enum(STEP_STATUSES), row.status, {
      kind: 'task step',
      row: `${row.task_id}#${row.step_no}`,
      field: 'task_steps.status',
    }),
    goal: row.goal,
    ...(row.tool !== null ? { tool: row.tool } : {}),
    ...(row.params !== null
      ? {
          params: parseStoredJson(row.params, {
            kind: 'task step',
            row: `${row.task_id}#${row.step_no}`,
            field: 'task_steps.params',
          }),
        }
      : {}),
    paramsValidated: Number(row.params_validated) === 1,
    ...(row.idempotency_key !== null ? { idempotencyKey: row.idempotency_key } : {}),
    ...(row.output_summary !== null ? { outputSummary: row.output_summary } : {}),
    ...(row.raw_output_ref !== null ? { rawOutputRef: row.raw_output_ref } : {}),
    ...(row.error !== null ? { error: row.error } : {}),
    ...(row.started_at !== null ? { startedAt: row.started_at } : {}),
    ...(row.finished_at !== null ? { finishedAt: row.finished_at } : {}),
  };
}
