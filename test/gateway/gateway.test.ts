import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide } from '../../src/core/index.js';
import {
  type Approver,
  type CallContext,
  defaultStages,
  type GatewayStage,
  ToolGateway,
  toolUnavailable,
} from '../../src/gateway/index.js';
import type { Store } from '../../src/store/index.js';
import { ToolRegistry } from '../../src/tools/index.js';
import { alice, carol, ExecutionLog, openTempStore, sampleTools } from './sample-tools.js';

let store: Store;
let cleanup: () => Promise<void>;
const log = new ExecutionLog();
const registry = new ToolRegistry().registerAll(sampleTools(log));
let seq = 0;
const call = (name: string, args: unknown) => ({ id: `call-${++seq}`, name, arguments: args });
const ctxOf = (identity = alice, extra: Partial<CallContext> = {}): CallContext => ({
  identity,
  sessionId: 'gw-test',
  domain: 'test',
  ...extra,
});

/** A stage that asks for approval of every `echo` call. */
const askEcho: GatewayStage = {
  name: 'approval',
  evaluate: (c) =>
    c.tool.name === 'echo'
      ? decide('ask', 'approval', 'approval.mode-default', 'echo needs a yes')
      : decide('allow', 'approval', 'approval.not-needed', 'ok'),
};

function gateway(extra: { stages?: GatewayStage[]; approvalTimeoutMs?: number } = {}) {
  return new ToolGateway({ tools: registry, audit: store.audit, reviews: store.reviews, ...extra });
}

beforeAll(async () => {
  ({ store, cleanup } = await openTempStore());
});
afterAll(async () => {
  await cleanup();
});

describe('ToolGateway stage verdicts', () => {
  it('executes an allowed call and shows the model the JSON output', async () => {
    const r = await gateway().invoke(call('echo', { text: 'hi', times: 2 }), ctxOf());
    expect(r.status).toBe('executed');
    expect(r.output).toEqual({ text: 'hihi', user: 'alice' });
    expect(r.modelContent).toBe(JSON.stringify({ text: 'hihi', user: 'alice' }));
    expect(r.path.map((d) => `${d.stage}:${d.verdict}`)).toEqual([
      'schema:allow',
      'rbac:allow',
      'review:allow',
    ]);
    expect(r.auditId).toMatch(/[0-9a-f-]{36}/);
  });

  it('schema: denies naming every bad field path, executes nothing', async () => {
    const before = log.count('echo');
    const r = await gateway().invoke(call('echo', { text: '', times: 9, extra: 1 }), ctxOf());
    expect(r.status).toBe('denied');
    expect(r.decision).toMatchObject({ stage: 'schema', ruleId: 'schema.invalid' });
    expect(r.decision.reason).toContain('text');
    expect(r.decision.reason).toContain('times');
    expect(r.modelContent).toContain('schema');
    expect(log.count('echo')).toBe(before);
  });

  it('schema: parsed args (defaults applied) are what the tool receives', async () => {
    const r = await gateway().invoke(call('echo', { text: 'x' }), ctxOf());
    expect(r.status).toBe('executed');
    expect(log.calls.at(-1)?.args).toEqual({ text: 'x', times: 1 });
  });

  it.each([
    ['role not allowed', 'payroll_export', { month: '2026-11' }, alice, {}, 'rbac.role-not-allowed'],
    ['data level too low', 'ledger_read', {}, alice, {}, 'rbac.data-level'],
    [
      'request addressed to another tenant',
      'echo',
      { text: 'a' },
      alice,
      { tenant: 'globex' },
      'rbac.tenant-mismatch',
    ],
    ['tool serving another tenant', 'globex_only', {}, alice, {}, 'rbac.tenant-mismatch'],
  ] as const)('rbac: denies when %s', async (_label, tool, args, identity, extra, ruleId) => {
    const before = log.calls.length;
    const r = await gateway().invoke(call(tool, args), ctxOf(identity, extra));
    expect(r.status).toBe('denied');
    expect(r.decision).toMatchObject({ verdict: 'deny', stage: 'rbac', ruleId });
    expect(log.calls.length).toBe(before);
  });

  it('unknown tool: denied at access with the same text as a hidden tool', async () => {
    const r = await gateway().invoke(call('nope', {}), ctxOf());
    expect(r.status).toBe('denied');
    expect(r.decision).toEqual(toolUnavailable('nope'));
    expect(r.modelContent).toBe('Tool nope is not available.');
    // An access layer hiding a registered tool answers with the identical decision and text.
    const hiding: GatewayStage = { name: 'access', evaluate: (c) => toolUnavailable(c.call.name) };
    const hidden = await gateway({ stages: [hiding, ...defaultStages()] }).invoke(
      call('echo', { text: 'a' }),
      ctxOf(),
    );
    expect(hidden.modelContent).toBe('Tool echo is not available.');
    expect(hidden.decision).toEqual(toolUnavailable('echo'));
  });

  it('review: queues the call in the store, executes nothing, returns the review id', async () => {
    const before = log.count('payroll_export');
    const r = await gateway().invoke(call('payroll_export', { month: '2026-11' }), ctxOf(carol));
    expect(r.status).toBe('review');
    expect(r.decision).toMatchObject({ verdict: 'review', stage: 'review', ruleId: 'review.required' });
    expect(r.reviewId).toBeTruthy();
    expect(r.modelContent).toContain(r.reviewId!);
    expect(log.count('payroll_export')).toBe(before);
    const item = await store.reviews.get(r.reviewId!);
    expect(item).toMatchObject({
      status: 'pending',
      tool: 'payroll_export',
      user: 'carol',
      args: { month: '2026-11' },
    });
    expect(item?.identity).toEqual(carol);
  });

  it('review: without a review queue the call is denied, never run', async () => {
    const g = new ToolGateway({ tools: registry, audit: store.audit });
    const r = await g.invoke(call('payroll_export', { month: '2026-11' }), ctxOf(carol));
    expect(r.status).toBe('denied');
    expect(r.decision.ruleId).toBe('review.unavailable');
  });

  it('tool throws: status failed with its message', async () => {
    const r = await gateway().invoke(call('explode', {}), ctxOf());
    expect(r.status).toBe('failed');
    expect(r.error).toEqual({ code: 'disk.fire', message: 'disk on fire' });
    expect(r.modelContent).toContain('disk on fire');
  });

  it('timeout: a tool ignoring its signal still yields timeout and the gateway returns', async () => {
    const r = await gateway().invoke(call('stall', {}), ctxOf());
    expect(r.status).toBe('timeout');
    expect(r.error?.code).toBe('timeout');
    expect(log.calls.at(-1)?.ctx.signal.aborted).toBe(true);
  });

  it('cancellation: aborting ctx.signal during execute ends the call as cancelled', async () => {
    const controller = new AbortController();
    const pending = gateway().invoke(call('stall', {}), ctxOf(alice, { signal: controller.signal }));
    await Promise.resolve();
    setImmediate(() => controller.abort(new Error('user pressed stop')));
    const r = await pending;
    expect(r.status).toBe('cancelled');
    expect(log.calls.at(-1)?.ctx.signal.aborted).toBe(true);
  });

  it('cancellation: an already-aborted signal runs nothing', async () => {
    const before = log.count('echo');
    const r = await gateway().invoke(
      call('echo', { text: 'a' }),
      ctxOf(alice, { signal: AbortSignal.abort() }),
    );
    expect(r.status).toBe('cancelled');
    expect(log.count('echo')).toBe(before);
  });

  it('a stage that throws fails the call (audited), never executes it', async () => {
    const broken: GatewayStage = {
      name: 'policy',
      evaluate: () => {
        throw new Error('policy engine down');
      },
    };
    const before = log.count('echo');
    const r = await gateway({ stages: [...defaultStages(), broken] }).invoke(
      call('echo', { text: 'a' }),
      ctxOf(),
    );
    expect(r.status).toBe('failed');
    expect(r.error?.message).toContain('policy engine down');
    expect(log.count('echo')).toBe(before);
  });
});

describe('ToolGateway ask verdicts', () => {
  const stages = [...defaultStages(), askEcho];

  it('without an approver the call ends as ask', async () => {
    const r = await gateway({ stages }).invoke(call('echo', { text: 'a' }), ctxOf());
    expect(r.status).toBe('ask');
    expect(r.decision).toMatchObject({ verdict: 'ask', ruleId: 'approval.mode-default' });
  });

  it('approver allows: the pipeline continues and the tool runs', async () => {
    const approver: Approver = { request: async () => ({ behavior: 'allow' }) };
    const r = await gateway({ stages }).invoke(call('echo', { text: 'a' }), ctxOf(alice, { approver }));
    expect(r.status).toBe('executed');
    expect(r.path.map((d) => d.ruleId)).toContain('approval.granted');
  });

  it('approver allows with edited args: they are re-validated and used', async () => {
    const approver: Approver = {
      request: async () => ({ behavior: 'allow', updatedArgs: { text: 'edited' } }),
    };
    const r = await gateway({ stages }).invoke(call('echo', { text: 'a' }), ctxOf(alice, { approver }));
    expect(r.status).toBe('executed');
    expect(r.output).toMatchObject({ text: 'edited' });
  });

  it('approver allows with invalid edited args: denied by schema', async () => {
    const approver: Approver = { request: async () => ({ behavior: 'allow', updatedArgs: { text: 42 } }) };
    const before = log.count('echo');
    const r = await gateway({ stages }).invoke(call('echo', { text: 'a' }), ctxOf(alice, { approver }));
    expect(r.status).toBe('denied');
    expect(r.decision).toMatchObject({ stage: 'schema', ruleId: 'schema.invalid' });
    expect(log.count('echo')).toBe(before);
  });

  it('edited args are a new call: every stage decides again on them, and only an ask counts as answered', async () => {
    // A stage that refuses one argument value, whatever mode or approver says.
    const noSecret: GatewayStage = {
      name: 'policy',
      evaluate: (c) =>
        (c.args as { text?: string }).text === 'secret'
          ? decide('deny', 'policy', 'policy.no-secret', 'not that text')
          : decide('allow', 'policy', 'policy.ok', 'ok'),
    };
    let asked = 0;
    const approver: Approver = {
      request: async () => {
        asked++;
        return { behavior: 'allow', updatedArgs: { text: 'secret' } };
      },
    };
    const before = log.count('echo');
    const edited = await gateway({ stages: [...defaultStages(), noSecret, askEcho] }).invoke(
      call('echo', { text: 'a' }),
      ctxOf(alice, { approver }),
    );
    expect(edited.status).toBe('denied');
    expect(edited.decision).toMatchObject({ stage: 'policy', ruleId: 'policy.no-secret' });
    expect(log.count('echo')).toBe(before);
    // An allowed edit: the second ask is answered by the first approval, not asked again.
    const fine: Approver = {
      request: async () => {
        asked++;
        return { behavior: 'allow', updatedArgs: { text: 'fine' } };
      },
    };
    asked = 0;
    const ran = await gateway({ stages: [...defaultStages(), noSecret, askEcho] }).invoke(
      call('echo', { text: 'a' }),
      ctxOf(alice, { approver: fine }),
    );
    expect(ran.status).toBe('executed');
    expect(asked).toBe(1);
    expect(ran.path.filter((d) => d.ruleId === 'policy.ok')).toHaveLength(2);
  });

  it('approver denies: the call ends denied', async () => {
    const approver: Approver = { request: async () => ({ behavior: 'deny', message: 'not today' }) };
    const r = await gateway({ stages }).invoke(call('echo', { text: 'a' }), ctxOf(alice, { approver }));
    expect(r.status).toBe('denied');
    expect(r.decision).toMatchObject({ stage: 'approval', ruleId: 'approval.denied', reason: 'not today' });
  });

  it('approver never answers: denied approval.timeout after the configured bound, approver signal aborted', async () => {
    let seen: AbortSignal | undefined;
    const approver: Approver = {
      request: (_req, signal) => {
        seen = signal;
        return new Promise(() => {});
      },
    };
    const r = await gateway({ stages, approvalTimeoutMs: 30 }).invoke(
      call('echo', { text: 'a' }),
      ctxOf(alice, { approver }),
    );
    expect(r.status).toBe('denied');
    expect(r.decision.ruleId).toBe('approval.timeout');
    expect(seen?.aborted).toBe(true);
  });

  it('caller aborts while waiting for approval: denied approval.timeout', async () => {
    const controller = new AbortController();
    const approver: Approver = {
      request: () => {
        setImmediate(() => controller.abort());
        return new Promise(() => {});
      },
    };
    const r = await gateway({ stages }).invoke(
      call('echo', { text: 'a' }),
      ctxOf(alice, { approver, signal: controller.signal }),
    );
    expect(r.status).toBe('denied');
    expect(r.decision.ruleId).toBe('approval.timeout');
  });

  it('approver throws: denied approval.error', async () => {
    const approver: Approver = {
      request: async () => {
        throw new Error('host went away');
      },
    };
    const r = await gateway({ stages }).invoke(call('echo', { text: 'a' }), ctxOf(alice, { approver }));
    expect(r.decision).toMatchObject({ verdict: 'deny', ruleId: 'approval.error' });
  });
});

describe('ToolGateway dry run', () => {
  it('reports every verdict without executing, asking, queueing or auditing', async () => {
    const before = log.calls.length;
    const stages = [...defaultStages(), askEcho];
    let asked = false;
    const approver: Approver = {
      request: async () => {
        asked = true;
        return { behavior: 'allow' };
      },
    };
    const g = gateway({ stages });
    const ok = await g.check(call('ledger_read', {}), ctxOf(carol));
    expect(ok.verdict).toBe('allow');
    const ask = await g.check(call('echo', { text: 'a' }), ctxOf(alice, { approver }));
    expect(ask.verdict).toBe('ask');
    const review = await g.check(call('payroll_export', { month: '2026-11' }), ctxOf(carol));
    expect(review.verdict).toBe('review');
    const missing = await g.check(call('nope', {}), ctxOf());
    expect(missing.decision).toEqual(toolUnavailable('nope'));
    expect(asked).toBe(false);
    expect(log.calls.length).toBe(before);
    await store.audit.flush();
    const records = await store.audit.query({ limit: 10_000 });
    expect(records.some((r) => [ok.callId, ask.callId, review.callId].includes(r.callId))).toBe(false);
  });
});

describe('ToolGateway.executeApprovedReview', () => {
  it('runs an approved review exactly once, as the original identity, even when raced', async () => {
    const g = gateway();
    const queued = await g.invoke(call('payroll_export', { month: '2026-10' }), ctxOf(carol));
    const review = (await store.reviews.get(queued.reviewId!))!;
    expect(await store.reviews.decide(review.id, { decision: 'approved', by: 'boss' })).toEqual({
      changed: true,
    });
    const before = log.count('payroll_export');
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => g.executeApprovedReview(review, { identity: review.identity })),
    );
    expect(results.filter((r) => r.status === 'executed')).toHaveLength(1);
    expect(results.filter((r) => r.decision.ruleId === 'review.not-claimable')).toHaveLength(3);
    expect(log.count('payroll_export')).toBe(before + 1);
    expect(log.calls.at(-1)?.ctx.identity).toEqual(carol);
    expect(log.calls.at(-1)?.args).toEqual({ month: '2026-10' });
    const done = await store.reviews.get(review.id);
    expect(done?.status).toBe('executed');
    expect(done?.resultSummary).toContain('ok');
  });

  it('re-checks the other stages: a review whose identity lost its role is denied, marked failed', async () => {
    const g = gateway();
    const queued = await g.invoke(call('payroll_export', { month: '2026-09' }), ctxOf(carol));
    const review = (await store.reviews.get(queued.reviewId!))!;
    await store.reviews.decide(review.id, { decision: 'approved', by: 'boss' });
    // The requester lost the role since: the approval runs as who they are now.
    const r = await g.executeApprovedReview(review, { identity: { ...carol, roles: ['employee'] } });
    expect(r.status).toBe('denied');
    expect(r.decision.ruleId).toBe('rbac.role-not-allowed');
    expect((await store.reviews.get(review.id))?.status).toBe('failed');
  });

  it('a requester no longer in the directory: the approved call never runs and the review fails', async () => {
    const g = gateway();
    const queued = await g.invoke(call('payroll_export', { month: '2026-07' }), ctxOf(carol));
    const review = (await store.reviews.get(queued.reviewId!))!;
    await store.reviews.decide(review.id, { decision: 'approved', by: 'boss' });
    const before = log.count('payroll_export');
    const r = await g.executeApprovedReview(review, { identity: undefined });
    expect(r).toMatchObject({ status: 'denied', decision: { ruleId: 'review.requester-unknown' } });
    expect(log.count('payroll_export')).toBe(before);
    expect((await store.reviews.get(review.id))?.status).toBe('failed');
  });

  it('a denied or pending review cannot be executed', async () => {
    const g = gateway();
    const queued = await g.invoke(call('payroll_export', { month: '2026-08' }), ctxOf(carol));
    const review = (await store.reviews.get(queued.reviewId!))!;
    const pending = await g.executeApprovedReview(review, { identity: review.identity });
    expect(pending.status).toBe('denied');
    await store.reviews.decide(review.id, { decision: 'denied', by: 'boss' });
    const denied = await g.executeApprovedReview(review, { identity: review.identity });
    expect(denied.decision.ruleId).toBe('review.not-claimable');
  });
});

describe('ToolGateway result stages', () => {
  it('transform the output the model sees; a failing transform withholds the output', async () => {
    const upper = {
      name: 'upper',
      transform: (out: unknown) => ({
        output: { ...(out as object), text: 'REDACTED' },
        notes: ['redacted text'],
      }),
    };
    const g1 = new ToolGateway({ tools: registry, audit: store.audit, resultStages: [upper] });
    const r1 = await g1.invoke(call('echo', { text: 'secret' }), ctxOf());
    expect(r1.modelContent).toContain('REDACTED');
    expect(r1.modelContent).not.toContain('secret');
    const broken = {
      name: 'broken',
      transform: () => {
        throw new Error('redactor crashed');
      },
    };
    const g2 = new ToolGateway({ tools: registry, audit: store.audit, resultStages: [broken] });
    const r2 = await g2.invoke(call('echo', { text: 'secret' }), ctxOf());
    expect(r2.status).toBe('failed');
    expect(r2.output).toBeUndefined();
    expect(r2.modelContent).not.toContain('secret');
  });
});
