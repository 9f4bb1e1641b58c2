import { afterEach, describe, expect, it } from 'vitest';
import {
  BreakerOpenError,
  createBreakerStage,
  isToolFault,
  ToolBreakers,
  ToolTimeoutError,
  ToolWideBreaker,
} from '../../src/resilience/index.js';
import { ToolBackendError } from '../../src/tools/index.js';

const ok = () => Promise.resolve('ok');
const fail = () => Promise.reject(new Error('no customer named X'));
const backendDown = () => Promise.reject(new ToolBackendError('CRM answered 503', { status: 503 }));

let breakers: ToolBreakers;
afterEach(() => breakers?.shutdown());

async function settle(p: Promise<unknown>): Promise<'ok' | 'failed' | 'open' | 'open-tool'> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    if (err instanceof BreakerOpenError) return err.scope === 'tool' ? 'open-tool' : 'open';
    return 'failed';
  }
}

const identity = (tenant: string) => ({
  tenant,
  user: 'u',
  roles: [],
  dataLevel: 'L1' as const,
  attributes: {},
});
const callOf = (tool: string) => ({
  call: { id: 'c1', name: tool, arguments: {} },
  tool: { name: tool } as never,
  args: {},
});

describe('ToolBreakers: one breaker per (tenant, tool)', () => {
  it('stays closed below the volume threshold however many fail', async () => {
    breakers = new ToolBreakers({ volumeThreshold: 20 });
    for (let i = 0; i < 19; i++) await settle(breakers.run('acme', 'sales_query', fail));
    expect(breakers.state('acme', 'sales_query')).toBe('closed');
  });

  it('opens when a tool failing 40% of 20 calls passes the 30% threshold — for that tenant and tool only', async () => {
    breakers = new ToolBreakers({
      volumeThreshold: 20,
      errorThresholdPercentage: 30,
      resetTimeoutMs: 60_000,
    });
    // Opossum evaluates the threshold when a call fails, so the 20th call here is a failure.
    for (let i = 0; i < 20; i++)
      await settle(breakers.run('acme', 'sales_query', i % 5 === 2 || i % 5 === 4 ? fail : ok));
    expect(breakers.state('acme', 'sales_query')).toBe('open');
    expect(await settle(breakers.run('acme', 'sales_query', ok))).toBe('open');
    // Another tool of the same tenant, and the same tool of another tenant, are untouched.
    expect(await settle(breakers.run('acme', 'calendar_list', ok))).toBe('ok');
    expect(breakers.state('globex', 'sales_query')).toBe('closed');
    expect(await settle(breakers.run('globex', 'sales_query', ok))).toBe('ok');
    expect(breakers.toolState('sales_query')).toBe('closed');
  });

  it('does not open at 20% failures', async () => {
    breakers = new ToolBreakers({ volumeThreshold: 20, errorThresholdPercentage: 30 });
    for (let i = 0; i < 20; i++) await settle(breakers.run('acme', 't', i % 5 === 0 ? fail : ok));
    expect(breakers.state('acme', 't')).toBe('closed');
  });

  it('counts slow successes as failures but still returns their result', async () => {
    breakers = new ToolBreakers({ volumeThreshold: 4, errorThresholdPercentage: 30, slowCallMs: 5 });
    const slow = () => new Promise<string>((r) => setTimeout(() => r('late'), 15));
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await breakers.run('acme', 't', slow));
    expect(results).toEqual(['late', 'late', 'late', 'late']);
    expect(breakers.state('acme', 't')).toBe('open');
  });

  it('a call past its timeout fails with ToolTimeoutError, a tool fault', async () => {
    breakers = new ToolBreakers({ volumeThreshold: 100 });
    const hang = () => new Promise<string>(() => {});
    await expect(breakers.run('acme', 't', hang, { timeoutMs: 10 })).rejects.toBeInstanceOf(ToolTimeoutError);
  });

  it('half-opens after the reset timeout and closes again on a successful trial', async () => {
    breakers = new ToolBreakers({ volumeThreshold: 2, errorThresholdPercentage: 30, resetTimeoutMs: 30 });
    await settle(breakers.run('acme', 't', fail));
    await settle(breakers.run('acme', 't', fail));
    expect(breakers.state('acme', 't')).toBe('open');
    await new Promise((r) => setTimeout(r, 60));
    expect(breakers.state('acme', 't')).toBe('half_open');
    expect(await settle(breakers.run('acme', 't', ok))).toBe('ok');
    expect(breakers.state('acme', 't')).toBe('closed');
  });

  it('a tenant sees only its own rows; the overview names no tenant', async () => {
    breakers = new ToolBreakers({ volumeThreshold: 2, resetTimeoutMs: 60_000 });
    await settle(breakers.run('acme', 'renewal_message_draft', fail));
    await settle(breakers.run('acme', 'renewal_message_draft', fail));
    await settle(breakers.run('globex', 'calendar_list', ok));
    expect(breakers.snapshot('globex')).toEqual([
      {
        tool: 'calendar_list',
        state: 'closed',
        tenantState: 'closed',
        toolState: 'closed',
        failures: 0,
        successes: 1,
      },
    ]);
    expect(breakers.snapshot('acme').map((r) => [r.tool, r.state, r.failures])).toEqual([
      ['renewal_message_draft', 'open', 2],
    ]);
    const overview = breakers.overview();
    expect(overview).toEqual([
      { tool: 'calendar_list', toolState: 'closed', tenantsOpen: 0, tenantsHalfOpen: 0 },
      { tool: 'renewal_message_draft', toolState: 'closed', tenantsOpen: 1, tenantsHalfOpen: 0 },
    ]);
    expect(JSON.stringify(overview)).not.toMatch(/acme|globex/);
  });
});

describe('the tool-wide breaker counts only tool faults, and only several tenants can open it', () => {
  it('one tenant failing every call — bad arguments, timeouts or 5xx — never opens it for another', async () => {
    breakers = new ToolBreakers({ volumeThreshold: 20, resetTimeoutMs: 60_000 });
    for (let i = 0; i < 40; i++) await settle(breakers.run('acme', 'renewal_message_draft', fail));
    for (let i = 0; i < 40; i++) await settle(breakers.run('acme', 'renewal_message_draft', backendDown));
    expect(breakers.state('acme', 'renewal_message_draft')).toBe('open');
    expect(breakers.toolState('renewal_message_draft')).toBe('closed');
    expect(await settle(breakers.run('globex', 'renewal_message_draft', ok))).toBe('ok');
  });

  it('opens for everyone when two tenants each see the backend fail, and a good trial closes it', async () => {
    let now = 1_000_000;
    const changes: string[] = [];
    const wide = new ToolWideBreaker(
      { resetTimeoutMs: 1_000 },
      (s) => changes.push(s),
      () => now,
    );
    // acme: 10 calls, 5 backend faults; globex: 10 calls, 4 faults. Both over 30%, 20 calls in all.
    for (let i = 0; i < 10; i++) wide.record('acme', i % 2 === 0, wide.admit());
    expect(wide.state).toBe('closed');
    for (let i = 0; i < 10; i++) wide.record('globex', i < 4, wide.admit());
    expect(wide.state).toBe('open');
    expect(wide.admit()).toBe(false);
    now += 1_000;
    expect(wide.state).toBe('half_open');
    const trial = wide.admit();
    expect(trial).toBe('trial');
    expect(wide.admit()).toBe(false); // one trial at a time
    wide.record('initech', false, trial);
    expect(wide.state).toBe('closed');
    expect(changes).toEqual(['open', 'closed']);
  });

  it('caller errors (not tool faults) from many tenants leave it closed', async () => {
    breakers = new ToolBreakers({ volumeThreshold: 4, resetTimeoutMs: 60_000 });
    for (const tenant of ['a', 'b', 'c', 'd'])
      for (let i = 0; i < 10; i++) await settle(breakers.run(tenant, 't', fail));
    expect(breakers.toolState('t')).toBe('closed');
  });

  it('timeouts across two tenants open it; the refusal names the tool scope', async () => {
    breakers = new ToolBreakers({
      volumeThreshold: 10,
      resetTimeoutMs: 60_000,
      toolWide: { minTenantCalls: 5 },
    });
    const hang = () => new Promise<string>(() => {});
    for (const tenant of ['acme', 'globex'])
      for (let i = 0; i < 5; i++) await settle(breakers.run(tenant, 'page_fetch', hang, { timeoutMs: 2 }));
    expect(breakers.toolState('page_fetch')).toBe('open');
    expect(await settle(breakers.run('initech', 'page_fetch', ok))).toBe('open-tool');
    const d = await createBreakerStage(breakers).evaluate(callOf('page_fetch'), {
      identity: identity('initech'),
      sessionId: 's',
    });
    expect(d.ruleId).toBe('resilience.circuit-open');
    expect(d.details).toMatchObject({ scope: 'tool' });
  });

  it('refuses minTenants below 2 at construction', () => {
    expect(() => new ToolBreakers({ toolWide: { minTenants: 1 } })).toThrow(/at least 2/);
  });

  it('classifies failures: timeouts, 5xx, lost connections and ToolBackendError are the tool’s', () => {
    expect(isToolFault(new ToolTimeoutError('t', 5))).toBe(true);
    expect(isToolFault(new ToolBackendError('down'))).toBe(true);
    expect(isToolFault(Object.assign(new Error('bad gateway'), { status: 502 }))).toBe(true);
    expect(isToolFault(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isToolFault(new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } }))).toBe(true);
    expect(isToolFault(Object.assign(new Error('not found'), { status: 404 }))).toBe(false);
    expect(isToolFault(new Error('no customer named X'))).toBe(false);
    expect(isToolFault('string')).toBe(false);
  });
});

describe('the breaker stage', () => {
  it('turns the caller’s tenant’s open breaker into a deny the agent can read; other tenants pass', async () => {
    breakers = new ToolBreakers({ volumeThreshold: 1, errorThresholdPercentage: 30, resetTimeoutMs: 60_000 });
    await settle(breakers.run('acme', 'page_fetch', fail));
    const stage = createBreakerStage(breakers);
    const d = await stage.evaluate(callOf('page_fetch'), { identity: identity('acme'), sessionId: 's' });
    expect(d.verdict).toBe('deny');
    expect(d.ruleId).toBe('resilience.circuit-open');
    expect(d.reason).toMatch(/temporarily unavailable/);
    expect(d.details).toMatchObject({ scope: 'tenant' });
    const other = await stage.evaluate(callOf('page_fetch'), {
      identity: identity('globex'),
      sessionId: 's',
    });
    expect(other.verdict).toBe('allow');
  });
});

describe('breaker state shared across processes (Redis)', () => {
  it('a tenant’s open breaker refuses that tenant in another process until it resets; others pass', async (ctx) => {
    const { Redis } = await import('ioredis');
    const { SharedBreakerState } = await import('../../src/resilience/index.js');
    const redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
    } catch {
      redis.disconnect();
      console.warn('[skip] Redis not reachable on 127.0.0.1:6379 — shared breaker test skipped');
      return ctx.skip();
    }
    const prefix = `twinline-test:${process.pid}:${Date.now()}:breaker`;
    const sharedHere = new SharedBreakerState(redis, prefix, 0);
    const here = new ToolBreakers({ volumeThreshold: 2, resetTimeoutMs: 400, shared: sharedHere });
    const there = new ToolBreakers({
      volumeThreshold: 2,
      resetTimeoutMs: 400,
      shared: new SharedBreakerState(redis, prefix, 0),
    });
    try {
      await settle(here.run('acme', 'page_fetch', fail));
      await settle(here.run('acme', 'page_fetch', fail));
      expect(here.state('acme', 'page_fetch')).toBe('open');
      // The same key in Redis as the breaker's (tenant, tool) here.
      const key = sharedHere.key({ tenant: 'acme', tool: 'page_fetch' });
      expect(key).toBe(`${prefix}:tenant:acme:page_fetch`);
      for (let i = 0; i < 100 && (await redis.pttl(key)) <= 0; i++)
        await new Promise((r) => setTimeout(r, 10));
      const stage = createBreakerStage(there);
      const acme = { identity: identity('acme'), sessionId: 's' };
      const globex = { identity: identity('globex'), sessionId: 's' };
      expect((await stage.evaluate(callOf('page_fetch'), acme)).ruleId).toBe('resilience.circuit-open');
      expect((await stage.evaluate(callOf('page_fetch'), globex)).verdict).toBe('allow');
      for (let i = 0; i < 100 && (await redis.pttl(key)) > 0; i++)
        await new Promise((r) => setTimeout(r, 20));
      expect((await stage.evaluate(callOf('page_fetch'), acme)).verdict).toBe('allow');
    } finally {
      here.shutdown();
      there.shutdown();
      redis.disconnect();
    }
  });
});
