import { describe, expect, it } from 'vitest';
import { ScriptedProvider } from '../../src/agent/index.js';
import { DeepLine, ModelPlanner } from '../../src/lines/index.js';
import { endedReview, ReviewService } from '../../src/review/index.js';
import { createRuntime } from '../../src/runtime/index.js';
import type { TaskPatch, TaskRepository } from '../../src/store/index.js';
import { ATLAS_BILLING_PLAN, ATLAS_BILLING_REQUEST } from './office-fixture.js';
import { officePerTest } from './office-per-test.js';

// A deep task parks on a review; whoever settles the review, and whenever, the task moves on
// exactly once.

const { office: officeForTest, closeAfter } = officePerTest();

/**
 * The office runtime, its review service, and a deep line whose task writes can be intercepted:
 * `beforePark` runs just before the task's `awaiting_review` status is written, `beforeRelease`
 * just before a run gives its lease up: that is how reviewers with unlucky timing are staged.
 */
async function setup(opts: { wired?: boolean } = {}) {
  const rt = closeAfter(await createRuntime(officeForTest().config));
  const store = rt.store!;
  const reviews = new ReviewService({
    reviews: store.reviews,
    gateway: rt.gateway,
    resolveIdentity: (tenant, user) => rt.identities.find(user, tenant),
  });
  const hooks: { beforePark?: () => Promise<void>; beforeRelease?: () => Promise<void> } = {};
  const tasksFor = (tenant: string): TaskRepository => {
    const repo = store.forTenant(tenant).tasks;
    return {
      ...repo,
      async updateTask(id: string, patch: TaskPatch, when) {
        if (patch.status === 'awaiting_review' && hooks.beforePark) {
          const hook = hooks.beforePark;
          hooks.beforePark = undefined;
          await hook();
        }
        return repo.updateTask(id, patch, when);
      },
      async releaseLease(id: string, owner: string) {
        const hook = hooks.beforeRelease;
        hooks.beforeRelease = undefined;
        await hook?.();
        return repo.releaseLease(id, owner);
      },
    };
  };
  const deep = new DeepLine({
    tasksFor,
    gateway: rt.gateway,
    tools: rt.registry,
    allowlist: new Set(rt.registry.list().map((t) => t.name)),
    planner: () =>
      new ModelPlanner(
        new ScriptedProvider([{ text: JSON.stringify(ATLAS_BILLING_PLAN) }, { text: 'Atlas billed.' }]),
      ),
    resolveIdentity: (tenant, user) => rt.identities.resolve(user, tenant),
    leaseMs: 2_000,
    ...(opts.wired === false
      ? {}
      : {
          reviewOutcome: async (tenant: string, reviewId: string) => {
            const item = await store.forTenant(tenant).reviews.get(reviewId);
            return item ? endedReview(item) : undefined;
          },
        }),
  });
  const carol = rt.identities.resolve('carol', 'acme');
  const tasks = store.forTenant('acme').tasks;
  const pendingReview = async () => {
    const items = await store.forTenant('acme').reviews.list({ status: 'pending' });
    return items.find((r) => r.tool === 'billing_report_query');
  };
  const executedBilling = async () => {
    await store.audit.flush();
    return (await store.audit.query({ tool: 'billing_report_query', limit: 100 })).filter(
      (r) => r.status === 'executed',
    );
  };
  return { deep, reviews, hooks, carol, tasks, store, pendingReview, executedBilling };
}

describe('a deep task parked on a review', () => {
  it('continues in the same run when the review was settled before the task finished parking', async () => {
    const { deep, reviews, hooks, carol, tasks, pendingReview, executedBilling } = await setup();
    const taskId = await deep.accept(carol, ATLAS_BILLING_REQUEST, 's1');
    let approvedEarly = false;
    hooks.beforePark = async () => {
      // The reviewer approves (and the call runs) while the task is still `running`: an approver
      // that looks for a parked task now finds none to wake.
      const review = await pendingReview();
      expect(review).toBeDefined();
      const outcome = await reviews.approve(review!.id, 'rita');
      approvedEarly = outcome.execution?.status === 'executed';
    };
    const result = await deep.run('acme', taskId);
    expect(approvedEarly).toBe(true);
    expect(result?.outcome).toBe('completed');
    expect((await tasks.getTask(taskId))?.status).toBe('completed');
    expect((await tasks.getSteps(taskId)).map((s) => s.status)).toEqual(['done', 'done']);
    expect(await executedBilling()).toHaveLength(1);
  });

  it('without the review lookup the same interleaving leaves the task parked (the race this closes)', async () => {
    const { deep, reviews, hooks, carol, tasks, pendingReview } = await setup({ wired: false });
    const taskId = await deep.accept(carol, ATLAS_BILLING_REQUEST, 's1');
    hooks.beforePark = async () => {
      await reviews.approve((await pendingReview())!.id, 'rita');
    };
    expect((await deep.run('acme', taskId))?.outcome).toBe('review');
    expect((await tasks.getTask(taskId))?.status).toBe('awaiting_review');
  });

  it('continues when the approver moved the task on while the parked run still held it', async () => {
    const { deep, reviews, hooks, carol, tasks, pendingReview, executedBilling } = await setup();
    const taskId = await deep.accept(carol, ATLAS_BILLING_REQUEST, 's1');
    let approverRun: unknown = 'not tried';
    hooks.beforePark = async () => {
      // Parking now; the approver acts after the run's last look at the review, before it lets go.
      hooks.beforeRelease = async () => {
        const review = (await pendingReview())!;
        const outcome = await reviews.approve(review.id, 'rita');
        const moved = await deep.resolveReview('acme', taskId, {
          reviewId: review.id,
          status: 'executed',
          summary: outcome.execution?.modelContent ?? '',
        });
        expect(moved).toBe(true);
        // The approver's own run stands aside: this process is still driving the task.
        approverRun = await deep.run('acme', taskId);
      };
    };
    const result = await deep.run('acme', taskId);
    expect(approverRun).toBeUndefined();
    expect(result?.outcome).toBe('completed');
    expect((await tasks.getTask(taskId))?.status).toBe('completed');
    expect(await executedBilling()).toHaveLength(1);
  });

  it('moves on once however many parties learn of the outcome at the same time', async () => {
    const { deep, reviews, carol, tasks, pendingReview } = await setup();
    const taskId = await deep.accept(carol, ATLAS_BILLING_REQUEST, 's1');
    expect((await deep.run('acme', taskId))?.outcome).toBe('review');
    const review = (await pendingReview())!;
    expect(deep.awaitedReview((await tasks.getTask(taskId))!)).toBe(review.id);
    await reviews.approve(review.id, 'rita');

    const outcome = { reviewId: review.id, status: 'executed' as const, summary: '1 row' };
    const won = await Promise.all([
      deep.resolveReview('acme', taskId, outcome),
      deep.settleParked('acme', taskId),
      deep.resolveReview('acme', taskId, outcome),
      deep.settleParked('acme', taskId),
    ]);
    expect(won.filter(Boolean)).toHaveLength(1);
    const task = (await tasks.getTask(taskId))!;
    expect(task.status).toBe('queued');
    expect(deep.awaitedReview(task)).toBeUndefined();
    // A late party changes nothing.
    expect(await deep.resolveReview('acme', taskId, outcome)).toBe(false);
    expect((await deep.run('acme', taskId))?.outcome).toBe('completed');
  });

  it('a denial or an expiry also lets the task finish, with the step failed and the reason kept', async () => {
    const { deep, reviews, carol, tasks, store, pendingReview } = await setup();
    const denied = await deep.accept(carol, ATLAS_BILLING_REQUEST, 's1');
    await deep.run('acme', denied);
    await reviews.deny((await pendingReview())!.id, 'rita', 'not this month');
    expect(await deep.settleParked('acme', denied)).toBe(true);
    expect((await deep.run('acme', denied))?.outcome).toBe('completed');
    const deniedStep = (await tasks.getSteps(denied))[1]!;
    expect(deniedStep.status).toBe('failed');
    expect(deniedStep.error).toBe('review denied: not this month');

    const expiring = await deep.accept(carol, ATLAS_BILLING_REQUEST, 's2');
    await deep.run('acme', expiring);
    const review = (await pendingReview())!;
    // Not ended yet: nothing moves.
    expect(await deep.settleParked('acme', expiring)).toBe(false);
    await store.reviews.expire(new Date(Date.parse(review.expiresAt) + 1));
    expect(await deep.settleParked('acme', expiring)).toBe(true);
    await deep.run('acme', expiring);
    expect((await tasks.getSteps(expiring))[1]?.error).toMatch(
      /^review expired: no reviewer decided before /,
    );
  });

  it('a second run of a task this process is already driving stands aside', async () => {
    const { deep, carol } = await setup();
    const taskId = await deep.accept(carol, '查一下文档里的报销政策', 's1');
    expect(deep.handles(taskId)).toBe(true);
    const [first, second] = await Promise.all([deep.run('acme', taskId), deep.run('acme', taskId)]);
    expect([first, second].filter((r) => r === undefined)).toHaveLength(1);
    expect(deep.handles(taskId)).toBe(false);
  });
});
