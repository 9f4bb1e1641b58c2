import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ModelProvider, type ModelTurnRequest, ScriptedProvider } from '../../src/agent/index.js';
import { type ContextEvent, InProcessContextBus } from '../../src/context/index.js';
import {
  DeepLine,
  ModelPlanner,
  RecentSummaries,
  type SummaryEntry,
  selectRelevantSummaries,
} from '../../src/lines/index.js';
import { createRuntime } from '../../src/runtime/index.js';
import { deepPlan } from './office-fixture.js';
import { officePerTest } from './office-per-test.js';

const { office: officeForTest, closeAfter } = officePerTest();

const entry = (
  stepNo: number,
  tool: string,
  goal: string,
  status = 'done',
  anomaly = false,
): SummaryEntry => ({
  stepNo,
  tool,
  goal,
  status,
  line: `#${stepNo} ${tool} [${status}] ${goal} → x${anomaly ? ' | anomalies: no rows returned' : ''}`,
});

describe('selectRelevantSummaries', () => {
  it.each([
    {
      name: 'keeps steps sharing terms with the goal, drops the rest',
      goal: 'east sales analysis',
      entries: [entry(1, 'sales_query', 'East sales July'), entry(2, 'calendar_list', 'Team meetings')],
      cap: 5,
      expected: [1],
    },
    {
      name: 'a failure is always kept even without overlap',
      goal: 'east sales analysis',
      entries: [entry(1, 'sales_query', 'East sales July'), entry(2, 'calendar_list', 'Meetings', 'failed')],
      cap: 5,
      expected: [1, 2],
    },
    {
      name: 'round robin across tools under the cap',
      goal: 'east sales renewals',
      entries: [
        entry(1, 'sales_query', 'East sales 1'),
        entry(2, 'sales_query', 'East sales 2'),
        entry(3, 'sales_query', 'East sales 3'),
        entry(4, 'customer_lookup', 'Renewals east'),
      ],
      cap: 2,
      expected: [3, 4],
    },
    {
      name: 'nothing overlapping: the latest steps',
      goal: 'zzz',
      entries: [entry(1, 'a_b', 'one'), entry(2, 'c_d', 'two'), entry(3, 'e_f', 'three')],
      cap: 2,
      expected: [2, 3],
    },
  ])('$name', ({ goal, entries, cap, expected }) => {
    const { selected, omitted } = selectRelevantSummaries(goal, entries, { cap });
    expect(selected.map((s) => s.stepNo)).toEqual(expected);
    expect(omitted).toBe(entries.length - expected.length);
  });

  it('never exceeds the cap, keeps step order, and keeps failures up to half the cap', () => {
    const arb = fc.array(
      fc.record({
        tool: fc.constantFrom('sales_query', 'calendar_list', 'ticket_create'),
        goal: fc.constantFrom('east sales', 'meetings', 'follow up ticket', 'renewals'),
        failed: fc.boolean(),
      }),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(arb, fc.integer({ min: 1, max: 15 }), (rows, cap) => {
        const entries = rows.map((r, i) => entry(i + 1, r.tool, r.goal, r.failed ? 'failed' : 'done'));
        const { selected } = selectRelevantSummaries('east sales renewals', entries, { cap });
        expect(selected.length).toBeLessThanOrEqual(cap);
        const nos = selected.map((s) => s.stepNo);
        expect(nos).toEqual([...nos].sort((a, b) => a - b));
        const failures = entries.filter((e) => e.status === 'failed').length;
        const keptFailures = selected.filter((s) => s.status === 'failed').length;
        expect(keptFailures).toBeGreaterThanOrEqual(Math.min(failures, Math.ceil(cap / 2)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('DeepLine context', () => {
  it('composes from a capped set of summaries (raw outputs stay in the store) and publishes only the goal', async () => {
    const office = officeForTest();
    const rt = closeAfter(await createRuntime(office.config));
    const plan = deepPlan(15, 'ctx');
    const requests: ModelTurnRequest[] = [];
    const inner = new ScriptedProvider([{ text: JSON.stringify(plan) }, { text: 'Done.' }]);
    const provider: ModelProvider = {
      kind: inner.kind,
      model: inner.model,
      turn(req) {
        requests.push(req);
        return inner.turn(req);
      },
    };
    const bus = new InProcessContextBus();
    const onBus: ContextEvent[] = [];
    bus.subscribe({ tenant: 'acme' }, (e) => void onBus.push(e));
    const context = new RecentSummaries(bus);
    const deep = new DeepLine({
      tasksFor: (t) => rt.store!.forTenant(t).tasks,
      gateway: rt.gateway,
      tools: rt.registry,
      allowlist: new Set(rt.registry.list().map((t) => t.name)),
      planner: new ModelPlanner(provider),
      resolveIdentity: (tenant, user) => rt.identities.resolve(user, tenant),
      context,
      summaryCap: 6,
    });
    const bob = rt.identities.resolve('bob', 'acme');
    const taskId = await deep.accept(bob, 'analyse east sales and file follow-ups', 's');
    const result = await deep.run('acme', taskId);
    expect(result?.outcome).toBe('completed');

    const compose = requests[1]!.messages[0]!.content as string;
    const summaryLines = compose.split('\n').filter((l) => l.startsWith('#'));
    expect(summaryLines.length).toBeLessThanOrEqual(6);
    expect(compose).toMatch(/other steps left out/);
    const tasks = rt.store!.forTenant('acme').tasks;
    for (const s of await tasks.getSteps(taskId)) {
      const raw = await tasks.getRawOutput(s.rawOutputRef!);
      expect(raw && raw.length > 40 ? compose.includes(raw) : false).toBe(false);
    }

    expect(onBus).toHaveLength(1);
    expect(onBus[0]).toMatchObject({ fromLine: 'deep', kind: 'task.completed', user: 'bob' });
    expect(onBus[0]!.summary).toBe(`task ${taskId} completed: ${plan.goal}`);
    expect(onBus[0]!.refs).toEqual([`task:${taskId}`]);
    expect(context.promptLine('acme', 'bob')).toContain(`[deep] task ${taskId} completed`);
    expect(context.promptLine('acme', 'alice')).toBe('');
    context.close();
    await bus.close();
  });
});
