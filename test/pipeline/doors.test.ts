import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type PermissionResult, query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/index.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { officeTempConfig, officeUsersText } from '../support/office-temp.js';
import { isoDay } from '../support/recent-dates.js';

/**
 * The attacks that once got different decisions at different doors, each through the real door:
 * the CLI and the stream-json engine as child processes (the engine driven by the real Claude
 * Agent SDK), `twinline serve` over HTTP, and the library. Every door must refuse what `check`
 * refuses, for the reason `check` gives.
 */
const BIN = resolve('bin/twinline.js');
const KEY = (tenant: string, user: string) => `tw-${tenant}-${user}-demo`;
const WEEK = { from: isoDay(-6), to: isoDay(0) };
const ALICE_READS_BOB = { ...WEEK, user: 'bob' };

function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  for (const k of [
    'TWINLINE_USER',
    'TWINLINE_TENANT',
    'TWINLINE_MODEL',
    'TWINLINE_CONFIG',
    'TWINLINE_DATABASE_URL',
  ])
    delete env[k];
  return { ...env, ...extra };
}

function twinline(args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: childEnv(env),
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function auditRows(file: string, tool: string): { status: string; decision_path: string }[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('select status, decision_path from audit_records where tool = ?').all(tool) as {
      status: string;
      decision_path: string;
    }[];
  } finally {
    db.close();
  }
}

/** The rule that decided a call: the last entry of its path. */
function lastRule(row: { decision_path: string }): string {
  const path = JSON.parse(row.decision_path) as { ruleId: string }[];
  return path.at(-1)?.ruleId ?? 'none';
}

async function collect(q: AsyncIterable<SDKMessage>): Promise<SDKMessage[]> {
  const out: SDKMessage[] = [];
  for await (const m of q) out.push(m);
  return out;
}

describe('an ABAC rule decides alike at every door: alice reads bob’s attendance', () => {
  const office = officeTempConfig();
  const script = join(office.dir, 'alice.json');
  afterAll(() => office.cleanup());
  beforeAll(() => {
    writeFileSync(
      script,
      JSON.stringify([
        { tool_calls: [{ id: 'toolu_att', name: 'attendance_query', arguments: ALICE_READS_BOB }] },
        { text: 'Here is what I found.' },
      ]),
    );
  });

  it('check says DENY by attendance.employee-self-only', () => {
    const r = twinline(
      [
        'check',
        '--config',
        office.configFile,
        '--user',
        'alice',
        '--tool',
        'attendance_query',
        '--args',
        JSON.stringify(ALICE_READS_BOB),
        '--json',
      ],
      office.dir,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).decision).toMatchObject({
      verdict: 'deny',
      ruleId: 'attendance.employee-self-only',
    });
  });

  it('twinline run refuses it for the same rule', () => {
    const r = twinline(
      [
        'run',
        'how often was bob late this week?',
        '--user',
        'alice',
        '--model',
        `scripted:${script}`,
        '--json',
        '--config',
        office.configFile,
      ],
      office.dir,
    );
    expect(r.code, r.stderr).toBe(0);
    const decisions = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; status?: string; decision?: { ruleId: string } })
      .filter((e) => e.type === 'decision');
    expect(decisions).toEqual([
      expect.objectContaining({
        status: 'denied',
        decision: expect.objectContaining({ ruleId: 'attendance.employee-self-only' }),
      }),
    ]);
  });

  it('the stream-json engine, driven by the Claude Agent SDK, refuses it for the same rule', async () => {
    const asked: string[] = [];
    const messages = await collect(
      query({
        prompt: 'how often was bob late this week?',
        options: {
          pathToClaudeCodeExecutable: BIN,
          cwd: office.dir,
          model: `scripted:${script}`,
          env: childEnv({
            TWINLINE_CONFIG: office.configFile,
            TWINLINE_USER: 'alice',
            TWINLINE_TENANT: 'acme',
          }),
          canUseTool: async (tool): Promise<PermissionResult> => {
            asked.push(tool);
            return { behavior: 'allow', updatedInput: {} };
          },
        },
      }),
    );
    expect(messages.at(-1)).toMatchObject({ type: 'result' });
    // Policy refuses before any approval: the host is never asked to let it through.
    expect(asked).toEqual([]);
    const rows = auditRows(join(office.dir, 'twinline.sqlite'), 'attendance_query');
    expect(rows.map((r) => [r.status, lastRule(r)])).toContainEqual([
      'denied',
      'attendance.employee-self-only',
    ]);
    expect(rows.some((r) => r.status === 'executed')).toBe(false);
  });

  it('createRuntime(config).gateway refuses it for the same rule', async () => {
    const { loadConfig } = await import('../../src/config/index.js');
    const rt = await createRuntime(loadConfig(office.configFile));
    try {
      const r = await rt.gateway.invoke(
        { id: 'lib-1', name: 'attendance_query', arguments: ALICE_READS_BOB },
        { identity: rt.identities.resolve('alice', 'acme'), sessionId: 'lib' },
      );
      expect(r).toMatchObject({ status: 'denied', decision: { ruleId: 'attendance.employee-self-only' } });
    } finally {
      await rt.close();
    }
  });

  it('twinline serve refuses it for the same rule (the quick line over HTTP)', async () => {
    const server = await startServer({
      port: 0,
      config: office.configFile,
      model: `scripted:${script}`,
      env: { ...process.env, TWINLINE_DATABASE_URL: '', TWINLINE_REDIS_URL: '' },
      log: () => {},
    });
    try {
      const res = await fetch(`${server.url}/v1/requests`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY('acme', 'alice')}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '帮我查一下 bob 这周的考勤' }),
      });
      const body = (await res.json()) as { route: { target: string }; denied: string[]; executed: string[] };
      expect(body.route.target).toBe('quick');
      expect(body.executed).toEqual([]);
      expect(body.denied).toEqual(['attendance_query']);
      await server.platform.store.audit.flush();
      const [rec] = await server.platform.store
        .forTenant('acme')
        .audit.query({ tool: 'attendance_query', limit: 1 });
      expect(rec?.decisionPath.find((d) => d.verdict !== 'allow')?.ruleId).toBe(
        'attendance.employee-self-only',
      );
    } finally {
      await server.close();
    }
  });
});

describe('the stream-json engine applies policies.yaml before review', () => {
  it('a call an ABAC deny rule refuses is denied, never queued for review', async () => {
    const office = officeTempConfig();
    try {
      const script = join(office.dir, 'frank.json');
      writeFileSync(
        script,
        JSON.stringify([
          {
            tool_calls: [
              {
                id: 'toolu_b',
                name: 'billing_report_query',
                arguments: { period: isoDay(-20).slice(0, 7), project: 'phoenix' },
              },
            ],
          },
          { text: 'Done.' },
        ]),
      );
      const messages = await collect(
        query({
          prompt: 'show me the phoenix billing report',
          options: {
            pathToClaudeCodeExecutable: BIN,
            cwd: office.dir,
            model: `scripted:${script}`,
            env: childEnv({
              TWINLINE_CONFIG: office.configFile,
              TWINLINE_USER: 'frank',
              TWINLINE_TENANT: 'acme',
            }),
            canUseTool: async (): Promise<PermissionResult> => ({ behavior: 'allow', updatedInput: {} }),
          },
        }),
      );
      expect(messages.at(-1)).toMatchObject({ type: 'result' });
      const file = join(office.dir, 'twinline.sqlite');
      const rows = auditRows(file, 'billing_report_query');
      expect(rows.map((r) => [r.status, lastRule(r)])).toEqual([['denied', 'billing.owner-own-projects']]);
      const db = new Database(file, { readonly: true });
      try {
        expect(db.prepare('select count(*) as n from reviews').get()).toEqual({ n: 0 });
      } finally {
        db.close();
      }
    } finally {
      office.cleanup();
    }
  });
});

describe('an approver’s edited input is a new call', () => {
  it('a host allow rewritten to `rm -rf victim` is denied by Bash(rm:*), and victim stays', async () => {
    const office = officeTempConfig();
    try {
      const victim = join(office.dir, 'victim');
      mkdirSync(victim);
      writeFileSync(join(victim, 'keep.txt'), 'precious');
      const script = join(office.dir, 'touch.json');
      writeFileSync(
        script,
        JSON.stringify([
          { tool_calls: [{ id: 'toolu_sh', name: 'shell', arguments: { command: 'touch made.txt' } }] },
          { text: 'Done.' },
        ]),
      );
      const asked: string[] = [];
      await collect(
        query({
          prompt: 'make a file',
          options: {
            pathToClaudeCodeExecutable: BIN,
            cwd: office.dir,
            model: `scripted:${script}`,
            disallowedTools: ['Bash(rm:*)'],
            env: childEnv({ HOME: office.dir }),
            canUseTool: async (tool, input): Promise<PermissionResult> => {
              asked.push(`${tool}:${String(input.command)}`);
              return { behavior: 'allow', updatedInput: { ...input, command: 'rm -rf victim' } };
            },
          },
        }),
      );
      expect(asked).toEqual(['shell:touch made.txt']);
      expect(existsSync(join(victim, 'keep.txt'))).toBe(true);
      expect(existsSync(join(office.dir, 'made.txt'))).toBe(false);
      // The folder's twinline.config.yaml (the office domain) names the store.
      const rows = auditRows(join(office.dir, 'twinline.sqlite'), 'shell');
      expect(rows.map((r) => [r.status, lastRule(r)])).toEqual([['denied', 'permission.deny']]);
    } finally {
      office.cleanup();
    }
  });
});

describe('approving a review decides the call again, as the requester is now', () => {
  const reviewerErin = officeUsersText().replace('roles: [hr_analyst],', 'roles: [hr_analyst, reviewer],');
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.close();
  });

  async function start(configFile: string) {
    server = await startServer({
      port: 0,
      config: configFile,
      env: { ...process.env, TWINLINE_DATABASE_URL: '', TWINLINE_REDIS_URL: '' },
      log: () => {},
    });
    return server;
  }

  async function approve(s: RunningServer, who: string, id: string) {
    const res = await fetch(`${s.url}/v1/reviews/${id}/approve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY('acme', who)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ note: 'checked' }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  async function queueSalary(s: RunningServer): Promise<string> {
    const p = s.platform;
    const r = await p.gateways.deep.invoke(
      { id: 'erin-salary', name: 'salary_analysis', arguments: { departments: ['rd'] } },
      {
        identity: p.runtime.identities.resolve('erin', 'acme'),
        sessionId: 'erin-task',
        domain: 'deep',
        declaredCapabilities: ['salary_analysis'],
      },
    );
    expect(r.status).toBe('review');
    return r.reviewId!;
  }

  it('a requester demoted before the approval: the call no longer passes and never runs', async () => {
    const office = officeTempConfig({ reviewers: 'version: 1\nreviewers: []\n' });
    try {
      const s1 = await start(office.configFile);
      const id = await queueSalary(s1);
      await s1.close();
      server = undefined;
      // erin is moved to employee/L1; the server restarts with the new directory.
      writeFileSync(
        join(office.dir, 'users.yaml'),
        officeUsersText().replace(
          'roles: [hr_analyst],\n      dataLevel: L3,',
          'roles: [employee],\n      dataLevel: L1,',
        ),
      );
      const text = (await import('node:fs')).readFileSync(office.configFile, 'utf8');
      writeFileSync(
        office.configFile,
        text.replace(/users: .*users\.yaml/, `users: ${join(office.dir, 'users.yaml')}`),
      );
      const s2 = await start(office.configFile);
      const r = await approve(s2, 'rita', id);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ decided: true, status: 'failed', execution: { status: 'denied' } });
      // Nothing ran, so no salary figure reaches anyone.
      expect(JSON.stringify(r.body)).not.toMatch(/"average"|"amounts"|headcount/);
      const review = await s2.platform.store.forTenant('acme').reviews.get(id);
      expect(review?.resultSummary).toMatch(/^re-decided: policy\/manifest\.(allowed-roles|data-level)/);
      await s2.platform.store.audit.flush();
      const [rec] = await s2.platform.store
        .forTenant('acme')
        .audit.query({ tool: 'salary_analysis', limit: 1 });
      expect(rec).toMatchObject({ user: 'erin', status: 'denied' });
      expect(rec!.decisionPath[0]).toMatchObject({ ruleId: 'review.approved' });
    } finally {
      await server?.close();
      server = undefined;
      office.cleanup();
    }
  });

  it('four-eyes: the requester may not approve their own review; another reviewer may', async () => {
    const office = officeTempConfig({ users: reviewerErin, reviewers: 'version: 1\nreviewers: []\n' });
    try {
      const s = await start(office.configFile);
      const id = await queueSalary(s);
      const own = await approve(s, 'erin', id);
      expect(own.status).toBe(403);
      expect(own.body).toMatchObject({ error: 'four_eyes' });
      expect((await s.platform.store.forTenant('acme').reviews.get(id))?.status).toBe('pending');
      const other = await approve(s, 'rita', id);
      expect(other.body).toMatchObject({ decided: true, status: 'executed' });
    } finally {
      await server?.close();
      server = undefined;
      office.cleanup();
    }
  });

  it('a self-approval rule lets a one-person team approve its own call, and the audit says so', async () => {
    const reviewers = [
      'version: 1',
      'reviewers: []',
      'selfApproval:',
      '  - id: hr.solo',
      '    tools: [salary_analysis]',
      '    reason: the HR team is one person',
      '',
    ].join('\n');
    const office = officeTempConfig({ users: reviewerErin, reviewers });
    try {
      const s = await start(office.configFile);
      const id = await queueSalary(s);
      const own = await approve(s, 'erin', id);
      expect(own.body).toMatchObject({ decided: true, status: 'executed' });
      await s.platform.store.audit.flush();
      const [rec] = await s.platform.store
        .forTenant('acme')
        .audit.query({ tool: 'salary_analysis', limit: 1 });
      expect(rec!.decisionPath[0]).toMatchObject({
        ruleId: 'review.self-approved',
        details: { rule: 'hr.solo' },
      });
    } finally {
      await server?.close();
      server = undefined;
      office.cleanup();
    }
  });

  it('twinline reviews approve replays with the line’s access slot: a forged quick-line review of a deep tool never runs', async () => {
    const office = officeTempConfig();
    try {
      const { openStore } = await import('../../src/store/index.js');
      const { loadConfig } = await import('../../src/config/index.js');
      const store = await openStore({ sqliteFile: join(office.dir, 'twinline.sqlite') });
      const carol = loadConfig(office.configFile).users.find((u) => u.user === 'carol')!;
      const { id } = await store.reviews.enqueue({
        tenant: 'acme',
        user: 'carol',
        sessionId: 'forged',
        agent: 'main',
        domain: 'quick',
        tool: 'billing_report_query',
        args: { period: isoDay(-20).slice(0, 7), project: 'atlas' },
        identity: carol,
        reason: 'forged',
        decisionPath: [],
        expiresAt: new Date(Date.now() + 3600_000).toISOString(),
      });
      await store.close();
      const r = twinline(
        ['reviews', 'approve', id, '--by', 'rita', '--json', '--config', office.configFile],
        office.dir,
      );
      const out = JSON.parse(r.stdout) as {
        status: string;
        execution: { status: string; decision: { ruleId: string } };
      };
      expect(out.status).toBe('failed');
      expect(out.execution).toMatchObject({ status: 'denied', decision: { ruleId: 'tool.unavailable' } });
      const self = twinline(
        ['reviews', 'approve', id, '--by', 'carol', '--config', office.configFile],
        office.dir,
      );
      expect(self.stdout).toMatch(/not changed/);
    } finally {
      office.cleanup();
    }
  });
});
