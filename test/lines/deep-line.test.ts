import { describe, expect, it } from 'vitest';
import { ScriptedProvider } from '../../src/agent/index.js';
import { DeepLine, type LineEvent, ModelPlanner, parsePlan } from '../../src/lines/index.js';
import { createRuntime } from '../../src/runtime/index.js';
import { RECENT } from '../support/recent-dates.js';
import { deepPlan } from './office-fixture.js';
import { officePerTest } from './office-per-test.js';

const { office: officeForTest, closeAfter } = officePerTest();

async function setup(turns: { text: string }[]) {
  const office = officeForTest();
  const rt = closeAfter(await createRuntime(office.config));
  const deep = new DeepLine({
    tasksFor: (t) => rt.store!.forTenant(t).tasks,
    gateway: rt.gateway,
    tools: rt.registry,
    // This test exercises the executor, not the office line split: every tool is on its line.
    allowlist: new Set(rt.registry.list().map((t) => t.name)),
    planner: new ModelPlanner(new ScriptedProvider(turns)),
    resolveIdentity: (tenant, user) => rt.identities.resolve(user, tenant),
    leaseMs: 2_000,
  });
  return { rt, deep };
}

describe('DeepLine', () => {
  it('plans, runs 9 steps, persists each with a summary and raw output, and composes from summaries', async () => {
    const plan = deepPlan(9, 'run1');
    const { rt, deep } = await setup([
      { text: JSON.stringify(plan) },
      { text: 'East sales analysed; 3 follow-ups filed.' },
    ]);
    const bob = rt.identities.resolve('bob', 'acme');
    const events: LineEvent[] = [];
    const taskId = await deep.accept(bob, 'analyse east sales', 'sess-1');
    const result = await deep.run('acme', taskId, { emit: (e) => events.push(e) });
    expect(result?.outcome).toBe('completed');
    expect(result?.text).toBe('East sales analysed; 3 follow-ups filed.');
    const steps = await rt.store!.forTenant('acme').tasks.getSteps(taskId);
    expect(steps).toHaveLength(9);
    for (const s of steps) {
      expect(s.status, s.error).toBe('done');
      expect(s.paramsValidated).toBe(true);
      expect(s.outputSummary).toMatch(new RegExp(`^#${s.stepNo} ${s.tool} \\[done\\]`));
      expect(s.rawOutputRef).toBeTruthy();
      const raw = await rt.store!.forTenant('acme').tasks.getRawOutput(s.rawOutputRef!);
      expect(raw).toBeTruthy();
    }
    const tickets = steps.filter((s) => s.tool === 'ticket_create');
    expect(tickets.every((s) => s.idempotencyKey === `${taskId}:${s.stepNo}`)).toBe(true);
    expect(events.filter((e) => e.type === 'step_finished')).toHaveLength(9);
    const task = await rt.store!.forTenant('acme').tasks.getTask(taskId);
    expect(task?.status).toBe('completed');
    // Another tenant cannot see the task.
    expect(await rt.store!.forTenant('globex').tasks.getTask(taskId)).toBeUndefined();
  });

  it('a step the user may not run fails without stopping the task, and the report says so', async () => {
    const plan = {
      goal: 'mixed',
      capabilities: [],
      steps: [
        {
          goal: 'sales',
          tool: 'sales_query',
          args: { ...RECENT, region: 'east' },
        },
        { goal: 'delete', tool: 'record_delete', args: { table: 'customers', id: '1' } },
      ],
    };
    const { rt, deep } = await setup([{ text: JSON.stringify(plan) }]);
    const taskId = await deep.accept(rt.identities.resolve('bob', 'acme'), 'x', 's');
    const result = await deep.run('acme', taskId);
    expect(result?.outcome).toBe('completed');
    expect(result?.executed).toEqual(['sales_query']);
    expect(result?.denied).toEqual(['record_delete']);
    // The script had no composing turn: the report is built from summaries.
    expect(result?.text).toContain('Goal: mixed');
  });

  it('an unreadable plan ends the task as failed with the reason', async () => {
    const { rt, deep } = await setup([{ text: 'I think we should look at sales.' }]);
    const taskId = await deep.accept(rt.identities.resolve('bob', 'acme'), 'x', 's');
    const result = await deep.run('acme', taskId);
    expect(result?.outcome).toBe('failed');
    expect(result?.text).toMatch(/plan was unusable/);
  });

  it('a second runner cannot take a task whose lease is held', async () => {
    const { rt, deep } = await setup([{ text: JSON.stringify(deepPlan(2, 'l')) }]);
    const taskId = await deep.accept(rt.identities.resolve('bob', 'acme'), 'x', 's');
    expect(await rt.store!.forTenant('acme').tasks.claimLease(taskId, 'someone-else', 60_000)).toBe(true);
    expect(await deep.run('acme', taskId)).toBeUndefined();
  });
});

describe('parsePlan', () => {
  it('reads fenced JSON and names the bad field', () => {
    const plan = parsePlan(
      '```json\n{"goal":"g","steps":[{"goal":"a","tool":"sales_query","args":{}}]}\n```',
    );
    expect(plan.steps[0]?.tool).toBe('sales_query');
    expect(() => parsePlan('{"goal":"g","steps":[{"goal":"a","tool":"bad tool!"}]}')).toThrow(
      /plan\.steps\.0\.tool/,
    );
  });
});

describe('DeepLine revision', () => {
  it('reports a failed step back to the planner, which replaces the remaining steps', async () => {
    const plan = {
      goal: 'tidy up',
      capabilities: [],
      steps: [
        {
          goal: 'sales',
          tool: 'sales_query',
          args: { ...RECENT, region: 'east' },
        },
        { goal: 'delete a record', tool: 'record_delete', args: { table: 'customers', id: '1' } },
        { goal: 'never reached', tool: 'calendar_list', args: RECENT },
      ],
    };
    const revision = {
      steps: [
        {
          goal: 'file a ticket instead',
          tool: 'ticket_create',
          args: { title: 'Please delete record 1', body: 'by hand' },
        },
        // A revision cannot grant itself a high-risk tool the plan never declared.
        { goal: 'billing too', tool: 'billing_report_query', args: { period: '2026-11' } },
      ],
    };
    const { rt, deep } = await setup([
      { text: JSON.stringify(plan) },
      { text: JSON.stringify(revision) },
      { text: '{"continue": true}' },
      { text: 'Sales read; deletion requested by ticket.' },
    ]);
    const events: LineEvent[] = [];
    const taskId = await deep.accept(rt.identities.resolve('bob', 'acme'), 'tidy up the east customers', 's');
    const result = await deep.run('acme', taskId, { emit: (e) => events.push(e) });
    expect(result?.text).toBe('Sales read; deletion requested by ticket.');
    const steps = await rt.store!.forTenant('acme').tasks.getSteps(taskId);
    expect(steps.map((s) => [s.tool, s.status])).toEqual([
      ['sales_query', 'done'],
      ['record_delete', 'failed'],
      ['ticket_create', 'done'],
      ['billing_report_query', 'failed'],
    ]);
    expect(steps[3]?.error).toMatch(/denied/);
    expect(events.filter((e) => e.type === 'plan')).toHaveLength(2);
  });
});
