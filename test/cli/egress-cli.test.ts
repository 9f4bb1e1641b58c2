import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedProvider } from '../../src/agent/index.js';
import { stripWatermark } from '../../src/gates/index.js';
import { DeepLine, ModelPlanner } from '../../src/lines/index.js';
import { createRuntime } from '../../src/runtime/index.js';
import { officeConfigIn } from '../lines/office-fixture.js';
import {
  EGRESS_KEY,
  EMAIL,
  EXFIL_TEXT,
  expectNoExfil,
  expectNoRawPii,
  expectWatermark,
  LEAKY_TEXT,
  MOBILE,
  RESIDENT_ID,
} from '../support/hostile-answer.js';

// The CLI's default config (the office domain) keeps its store in ./.twinline of the working
// directory: the tasks and reviews below are written there, then read by `twinline` processes.
const BIN = resolve('bin/twinline.js');
const cwd = mkdtempSync(join(tmpdir(), 'twinline-egress-cli-'));
let taskId = '';
let reviewId = '';

beforeAll(async () => {
  writeFileSync(
    join(cwd, 'hostile.json'),
    JSON.stringify([
      {
        text: LEAKY_TEXT,
        tool_calls: [{ name: 'calendar_list', arguments: { from: '2026-01-01', to: '2026-12-31' } }],
      },
      { text: EXFIL_TEXT },
    ]),
  );
  const office = officeConfigIn(cwd);
  const rt = await createRuntime({
    ...office.config,
    store: { sqliteFile: join(cwd, '.twinline', 'twinline.sqlite') },
  });
  try {
    const plan = {
      goal: `Report for ${EMAIL}`,
      capabilities: [],
      steps: [{ goal: `Policy for ${MOBILE}`, tool: 'doc_search', args: { query: `travel ${RESIDENT_ID}` } }],
    };
    const deep = new DeepLine({
      tasksFor: (t) => rt.store!.forTenant(t).tasks,
      gateway: rt.gateway,
      tools: rt.registry,
      allowlist: new Set(rt.registry.list().map((t) => t.name)),
      planner: new ModelPlanner(new ScriptedProvider([{ text: JSON.stringify(plan) }, { text: LEAKY_TEXT }])),
      resolveIdentity: (tenant, user) => rt.identities.resolve(user, tenant),
    });
    taskId = await deep.accept(rt.identities.resolve('alice', 'acme'), 'travel policy report', 's-cli');
    await deep.run('acme', taskId);
    const bob = rt.identities.resolve('bob', 'acme');
    reviewId = (
      await rt.store!.reviews.enqueue({
        tenant: 'acme',
        user: 'bob',
        sessionId: 's-review',
        agent: 'main',
        domain: 'quick',
        tool: 'customer_lookup',
        args: { region: 'east' },
        identity: bob,
        reason: `asked by the model: ${LEAKY_TEXT}`,
        decisionPath: [],
        expiresAt: new Date(Date.now() + 3600_000).toISOString(),
      })
    ).id;
  } finally {
    await rt.close();
  }
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function twinline(...args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env, TWINLINE_WATERMARK_KEY: EGRESS_KEY };
  for (const k of ['TWINLINE_DATABASE_URL', 'TWINLINE_MODEL', 'OPENAI_BASE_URL', 'OPENAI_API_KEY'])
    delete env[k];
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the CLI prints only gated text', () => {
  it('twinline run: progress lines are gated and the run stops at the block', () => {
    const r = twinline(
      'run',
      'show my calendar',
      '--user',
      'alice',
      '--model',
      `scripted:${join(cwd, 'hostile.json')}`,
    );
    expect(r.code, r.stderr).toBe(1);
    expectNoRawPii(r.stdout, 'run progress');
    expectNoExfil(r.stdout, 'run progress');
    const said = r.stdout.split('\n').find((l) => stripWatermark(l).includes('张伟'));
    expect(said).toBeDefined();
    expectWatermark(said!, { tenant: 'acme', user: 'alice', channel: 'cli' }, 'run text');
    expect(stripWatermark(r.stdout)).toMatch(/⛔ The answer was withheld by the output gate/);
  });

  it('twinline run --json: every event is gated, an output_blocked event ends the text', () => {
    const r = twinline(
      'run',
      'show my calendar',
      '--user',
      'alice',
      '--json',
      '--model',
      `scripted:${join(cwd, 'hostile.json')}`,
    );
    expect(r.code, r.stderr).toBe(1);
    expectNoRawPii(r.stdout, 'run --json');
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; text?: string });
    const at = events.findIndex((e) => e.type === 'output_blocked');
    expect(at).toBeGreaterThan(0);
    expect(events.slice(at + 1).map((e) => e.type)).toEqual(['result']);
    for (const e of events.filter((x) => x.type === 'text_delta')) {
      expectWatermark(e.text!, { user: 'alice', channel: 'cli' }, 'run --json delta');
    }
  });

  it('twinline tasks show / tasks: a task’s answer and steps as the requester (or a named viewer) may see them', () => {
    const shown = twinline('tasks', 'show', taskId, '--json');
    expect(shown.code, shown.stderr).toBe(0);
    expectNoRawPii(shown.stdout, 'tasks show --json');
    const task = JSON.parse(shown.stdout) as { answer: string };
    expectWatermark(task.answer, { user: 'alice', session: taskId, channel: 'cli' }, 'task answer');
    expectNoRawPii(twinline('tasks', 'show', taskId).stdout, 'tasks show');
    expectNoRawPii(twinline('tasks', '--json').stdout, 'tasks --json');
    // carol (L3) may see the phone and e-mail, not the resident ID.
    const asCarol = twinline('tasks', 'show', taskId, '--json', '--viewer', 'carol');
    expect(stripWatermark(asCarol.stdout)).toContain(MOBILE);
    expect(stripWatermark(asCarol.stdout)).not.toContain(RESIDENT_ID);
    const unknown = twinline('tasks', 'show', taskId, '--viewer', 'nobody');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/--viewer/);
  });

  it('twinline reviews list / approve: arguments, reasons and the call’s output are gated', () => {
    const list = twinline('reviews', 'list', '--json');
    expect(list.code, list.stderr).toBe(0);
    expect(stripWatermark(list.stdout)).toContain(reviewId);
    // As its requester (bob, L2) sees it: phones, e-mail and the ID masked.
    expectNoRawPii(list.stdout, 'reviews list');
    // mallory (L1) approves: the customer records the call returned reach her without phone numbers.
    const approved = twinline('reviews', 'approve', reviewId, '--by', 'mallory', '--json');
    expect(approved.code, approved.stderr).toBe(0);
    const out = JSON.parse(approved.stdout) as {
      status: string;
      execution?: { status: string; modelContent: string };
    };
    expect(out.execution?.status).toBe('executed');
    const printed = stripWatermark(out.execution?.modelContent ?? '');
    expect(printed).toMatch(/customers/);
    expect(printed.replace(/(\d)[\s-]+(?=\d)/g, '$1')).not.toMatch(/(?<!\d)1[3-9]\d{9}(?!\d)/);
  });
});
