import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedProvider } from '../../src/agent/index.js';
import { stripWatermark } from '../../src/gates/index.js';
import { DeepLine, ModelPlanner } from '../../src/lines/index.js';
import { createRuntime } from '../../src/runtime/index.js';
import { deepPlan, officeConfigIn } from './office-fixture.js';

const BIN = resolve('bin/twinline.js');
const cwd = mkdtempSync(join(tmpdir(), 'twinline-tasks-cli-'));
let doneId = '';
let queuedId = '';

beforeAll(async () => {
  // The CLI's default config keeps its store in ./.twinline of the working directory.
  const office = officeConfigIn(cwd);
  const runtime = await createRuntime({
    ...office.config,
    store: { sqliteFile: join(cwd, '.twinline', 'twinline.sqlite') },
  });
  try {
    const rt = runtime;
    const deep = new DeepLine({
      tasksFor: (t) => rt.store!.forTenant(t).tasks,
      gateway: rt.gateway,
      tools: rt.registry,
      allowlist: new Set(rt.registry.list().map((t) => t.name)),
      planner: new ModelPlanner(
        new ScriptedProvider([{ text: JSON.stringify(deepPlan(4, 'cli')) }, { text: 'Done.' }]),
      ),
      resolveIdentity: (tenant, user) => rt.identities.resolve(user, tenant),
    });
    doneId = await deep.accept(rt.identities.resolve('bob', 'acme'), 'analyse east sales', 's1');
    await deep.run('acme', doneId);
    queuedId = await deep.accept(rt.identities.resolve('hank', 'globex'), 'compare two plans', 's2');
  } finally {
    await runtime.close();
  }
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function twinline(...args: string[]) {
  const env = { ...process.env };
  delete env['TWINLINE_DATABASE_URL'];
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('twinline tasks', () => {
  it('lists tasks of every tenant, filtered by tenant and status', () => {
    const all = twinline('tasks', '--json');
    expect(all.code, all.stderr).toBe(0);
    const rows = JSON.parse(all.stdout) as { id: string; status: string; tenant: string; steps: number }[];
    expect(rows.map((r) => r.id).sort()).toEqual([doneId, queuedId].sort());
    expect(rows.find((r) => r.id === doneId)).toMatchObject({ status: 'completed', steps: 4 });
    const acme = JSON.parse(twinline('tasks', '--json', '--tenant', 'acme').stdout) as { id: string }[];
    expect(acme.map((r) => r.id)).toEqual([doneId]);
    const queued = JSON.parse(twinline('tasks', '--json', '--status', 'queued').stdout) as { id: string }[];
    expect(queued.map((r) => r.id)).toEqual([queuedId]);
    const table = twinline('tasks');
    expect(table.stdout).toContain(doneId);
    expect(table.stdout).toContain('completed');
  });

  it('shows one task with its steps, and names a missing one', () => {
    const shown = twinline('tasks', 'show', doneId, '--json');
    expect(shown.code, shown.stderr).toBe(0);
    const task = JSON.parse(shown.stdout) as {
      status: string;
      answer: string;
      steps: { stepNo: number; status: string; tool: string; outputSummary: string }[];
    };
    expect(task.status).toBe('completed');
    // The answer leaves through the egress gate: watermarked for the requester.
    expect(stripWatermark(task.answer)).toBe('Done.');
    expect(task.steps.map((s) => s.status)).toEqual(['done', 'done', 'done', 'done']);
    const text = twinline('tasks', 'show', doneId);
    expect(text.stdout).toMatch(/#1 +done +sales_query/);
    const missing = twinline('tasks', 'show', 'no-such-task');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/no task no-such-task/);
  });
});
