import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPlatform } from '../../src/platform/index.js';
import { ATLAS_BILLING_REQUEST } from '../lines/office-fixture.js';
import { officePerTest } from '../lines/office-per-test.js';

// The sweep `twinline serve` runs: reviews a rule decides or that expire, then parked tasks whose
// review ended without anyone waking them.

const { office: officeForTest, closeAfter } = officePerTest();

async function setup(now: () => Date = () => new Date()) {
  const office = officeForTest();
  // The office domain's reviewers.yaml lives beside its config file; the copy keeps it.
  const plan = {
    goal: 'Atlas billing',
    capabilities: ['billing_report_query'],
    steps: [{ goal: 'billing', tool: 'billing_report_query', args: { period: '2026-11', project: 'atlas' } }],
  };
  const script = join(office.dir, 'deep.json');
  writeFileSync(script, JSON.stringify([{ text: JSON.stringify(plan) }, { text: 'Atlas billed.' }]));
  const p = closeAfter(await createPlatform(office.config, { env: {}, model: `scripted:${script}`, now }));
  const tasks = p.store.forTenant('acme').tasks;
  const statusOf = async (id: string) => (await tasks.getTask(id))?.status;
  const until = async (id: string, status: string) => {
    for (let i = 0; i < 200 && (await statusOf(id)) !== status; i++)
      await new Promise((r) => setTimeout(r, 25));
    return statusOf(id);
  };
  const submit = async (user: string) => {
    const r = await p.handle(p.runtime.identities.resolve(user, 'acme'), ATLAS_BILLING_REQUEST);
    expect(r.outcome).toBe('queued');
    return r.taskId!;
  };
  const billingRuns = async () => {
    await p.store.audit.flush();
    const records = await p.store.audit.query({ tool: 'billing_report_query', limit: 10 });
    return records.filter((r) => r.status === 'executed').length;
  };
  return { p, tasks, until, submit, billingRuns };
}

describe('the sweep over parked deep tasks', () => {
  it('a review a rule approves in the sweep runs once and its task completes in the same sweep', async () => {
    const { p, tasks, until, submit, billingRuns } = await setup();
    // Frank owns atlas: reviewers.yaml approves his single-project billing report by rule.
    const taskId = await submit('frank');
    expect(await until(taskId, 'awaiting_review')).toBe('awaiting_review');

    const report = await p.reviews.process();
    expect(report.autoDecided.map((d) => d.ruleId)).toEqual(['billing.own-single-project']);
    expect(report.executed.map((e) => e.status)).toEqual(['executed']);
    expect(await p.resumeTasks()).toBe(1);
    expect(await until(taskId, 'completed')).toBe('completed');
    expect((await tasks.getSteps(taskId)).map((s) => s.status)).toEqual(['done']);

    expect(await billingRuns()).toBe(1);
    // Nothing is left to wake.
    expect(await p.resumeTasks()).toBe(0);
  });

  it('the platform sweep does it in one call: the rule decides, the call runs, the task completes', async () => {
    const { p, tasks, until, submit } = await setup();
    const taskId = await submit('frank');
    expect(await until(taskId, 'awaiting_review')).toBe('awaiting_review');
    expect(await p.sweep()).toBe(1);
    expect(await until(taskId, 'completed')).toBe('completed');
    expect((await tasks.getSteps(taskId)).map((s) => s.status)).toEqual(['done']);
    expect(await p.sweep()).toBe(0);
  });

  it('a call approved in a process that stopped before running it runs once in the sweep, and its task completes', async () => {
    const { p, tasks, until, submit, billingRuns } = await setup();
    const taskId = await submit('carol');
    expect(await until(taskId, 'awaiting_review')).toBe('awaiting_review');
    const [review] = await p.store.forTenant('acme').reviews.list({ status: 'pending' });
    // What an approval leaves when its process dies right after the conditional update.
    expect(await p.store.reviews.decide(review!.id, { decision: 'approved', by: 'rita' })).toEqual({
      changed: true,
    });
    const [first, second] = await Promise.all([p.sweep(), p.sweep()]);
    expect(first + second).toBe(1);
    expect(await until(taskId, 'completed')).toBe('completed');
    expect((await tasks.getSteps(taskId)).map((s) => s.status)).toEqual(['done']);
    expect(await billingRuns()).toBe(1);
    expect(await p.sweep()).toBe(0);
  });

  it('a review that expires unanswered lets its task finish without the step', async () => {
    let clock = Date.now();
    const { p, tasks, until, submit } = await setup(() => new Date(clock));
    // Carol is no owner: her billing report waits for a human, who never comes.
    const taskId = await submit('carol');
    expect(await until(taskId, 'awaiting_review')).toBe('awaiting_review');
    expect(await p.resumeTasks()).toBe(0);

    clock += 25 * 3600_000;
    expect((await p.reviews.process()).expired).toBe(1);
    expect(await p.resumeTasks()).toBe(1);
    expect(await until(taskId, 'completed')).toBe('completed');
    const [step] = await tasks.getSteps(taskId);
    expect(step?.status).toBe('failed');
    expect(step?.error).toMatch(/^review expired: /);
  });

  it('leaves alone a task this process accepted and has not started yet', async () => {
    const { p, until, submit } = await setup();
    const taskId = await submit('carol');
    // Accepted here and queued for its run, or in it: the sweep must not start it a second time.
    expect(await p.resumeTasks()).toBe(0);
    expect(await until(taskId, 'awaiting_review')).toBe('awaiting_review');
  });
});
