import { randomUUID } from 'node:crypto';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ModelProvider, type ModelTurnRequest, ScriptedProvider } from '../../src/agent/index.js';
import { type ContextEvent, InProcessContextBus } from '../../src/context/index.js';
import { ConfigError } from '../../src/core/index.js';
import { createPlatform, type PlatformOptions } from '../../src/platform/index.js';
import type { ToolSpec } from '../../src/tools/index.js';
import { officePerTest } from './office-per-test.js';

const { office: officeForTest, closeAfter } = officePerTest();

const START = Date.parse('2026-11-30T08:00:00Z');

/** The office platform with a movable clock, a backend call counter and a recorded context bus. */
async function setup(extra: Partial<PlatformOptions> = {}) {
  const office = officeForTest();
  const clock = { now: START };
  const backendCalls: Record<string, number> = {};
  const bus = new InProcessContextBus();
  const onBus: ContextEvent[] = [];
  for (const tenant of ['acme', 'globex']) bus.subscribe({ tenant }, (e) => void onBus.push(e));
  // Counts calls that reach the real office backend (the cache sits in front of this wrapper).
  const counting = (t: ToolSpec): ToolSpec => ({
    ...t,
    execute: (args, ctx) => {
      backendCalls[t.name] = (backendCalls[t.name] ?? 0) + 1;
      return t.execute(args, ctx);
    },
  });
  const p = await createPlatform(office.config, {
    env: {},
    now: () => new Date(clock.now),
    quickQps: 10_000,
    contextBus: bus,
    wrapTool: counting,
    ...extra,
  });
  closeAfter(p);
  const invoke = (user: string, tenant: string, tool: string, args: Record<string, unknown>) =>
    p.gateways.quick.invoke(
      { id: randomUUID(), name: tool, arguments: args },
      { identity: p.runtime.identities.resolve(user, tenant), sessionId: 's', domain: 'quick' },
    );
  const audited = async (tool: string) => {
    await p.store.audit.flush();
    return p.store.audit.query({ tool, limit: 1000 });
  };
  return { p, clock, backendCalls, onBus, invoke, audited };
}

const NOV = { from: '2026-11-01', to: '2026-12-31' };

/** A scripted model that also records every system prompt it was sent. */
function recording(turns: ConstructorParameters<typeof ScriptedProvider>[0]) {
  const inner = new ScriptedProvider(turns);
  const systems: string[] = [];
  const provider: ModelProvider = {
    kind: inner.kind,
    model: inner.model,
    turn(req: ModelTurnRequest) {
      systems.push(req.system);
      return inner.turn(req);
    },
  };
  return { provider, systems };
}

describe('quick line read cache through the platform gateway', () => {
  it('a second identical read is served from the cache, and both calls are audited', async () => {
    const { backendCalls, invoke, audited } = await setup();
    const first = await invoke('alice', 'acme', 'calendar_list', NOV);
    const second = await invoke('alice', 'acme', 'calendar_list', NOV);
    expect(first.status).toBe('executed');
    expect(second.status).toBe('executed');
    expect(second.output).toEqual(first.output);
    expect(backendCalls['calendar_list']).toBe(1);
    const records = await audited('calendar_list');
    expect(records.filter((r) => r.status === 'executed')).toHaveLength(2);
  });

  it('an entry expires after the tool TTL on the platform clock', async () => {
    const { clock, backendCalls, invoke } = await setup();
    await invoke('alice', 'acme', 'calendar_list', NOV);
    clock.now += 299_000;
    await invoke('alice', 'acme', 'calendar_list', NOV);
    expect(backendCalls['calendar_list']).toBe(1);
    clock.now += 2_000;
    await invoke('alice', 'acme', 'calendar_list', NOV);
    expect(backendCalls['calendar_list']).toBe(2);
  });

  it('a write to the same data scope invalidates the cached read, for every user of the tenant', async () => {
    const { backendCalls, invoke } = await setup();
    const before = await invoke('alice', 'acme', 'calendar_list', NOV);
    await invoke('bob', 'acme', 'calendar_list', NOV);
    expect(backendCalls['calendar_list']).toBe(2);
    const moved = await invoke('alice', 'acme', 'calendar_reschedule', {
      eventId: 'evt-0010',
      start: '2026-12-24T08:00:00Z',
      end: '2026-12-24T09:00:00Z',
    });
    expect(moved.status).toBe('executed');
    const after = await invoke('alice', 'acme', 'calendar_list', NOV);
    await invoke('bob', 'acme', 'calendar_list', NOV);
    expect(backendCalls['calendar_list']).toBe(4);
    const start = (r: typeof before) =>
      (r.output as { events: { id: string; start: string }[] }).events.find((e) => e.id === 'evt-0010')
        ?.start;
    expect(start(after)).toBe('2026-12-24T08:00:00.000Z');
    expect(start(after)).not.toBe(start(before));
  });

  it('a write in one tenant leaves another tenant’s cache alone', async () => {
    const { backendCalls, invoke } = await setup();
    await invoke('hank', 'globex', 'calendar_list', NOV);
    await invoke('alice', 'acme', 'calendar_reschedule', {
      eventId: 'evt-0010',
      start: '2026-12-24T08:00:00Z',
      end: '2026-12-24T09:00:00Z',
    });
    await invoke('hank', 'globex', 'calendar_list', NOV);
    expect(backendCalls['calendar_list']).toBe(1);
  });

  it.each([
    ['another user of the same tenant', 'mallory', 'acme'],
    ['a user of another tenant', 'hank', 'globex'],
  ])('a cached result is never served to %s', async (_label, user, tenant) => {
    const { backendCalls, invoke } = await setup();
    await invoke('alice', 'acme', 'calendar_list', NOV);
    const other = await invoke(user, tenant, 'calendar_list', NOV);
    expect(other.status).toBe('executed');
    expect(backendCalls['calendar_list']).toBe(2);
  });
});

describe('quick line strictness and prompt', () => {
  it('refuses at start-up a quick tool with a loose argument, naming tool and argument', async () => {
    const office = officeForTest();
    const loosen = (t: ToolSpec): ToolSpec =>
      t.name === 'customer_lookup' ? { ...t, inputSchema: z.strictObject({ name: z.string() }) } : t;
    const err = await createPlatform(office.config, { env: {}, wrapTool: loosen }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).code).toBe('config.quick_tool_not_strict');
    expect((err as ConfigError).message).toMatch(/customer_lookup/);
    expect((err as ConfigError).details).toMatchObject({ tool: 'customer_lookup', argument: 'name' });
  });

  it('gives the model the current time, and after a write the bus carries only a short fact', async () => {
    const { p, onBus } = await setup();
    const alice = p.runtime.identities.resolve('alice', 'acme');
    const write = recording([
      {
        tool_calls: [
          {
            name: 'calendar_reschedule',
            arguments: { eventId: 'evt-0010', start: '2026-12-24T08:00:00Z', end: '2026-12-24T09:00:00Z' },
          },
        ],
      },
      { text: 'Moved.' },
    ]);
    const r = await p.handle(alice, '把项目启动会改到下午4点', { provider: write.provider });
    expect(r.route.target).toBe('quick');
    expect(r.executed).toEqual(['calendar_reschedule']);
    expect(write.systems[0]).toContain(`Current time: ${new Date(START).toISOString()}`);

    expect(onBus).toHaveLength(1);
    const event = onBus[0]!;
    expect(event).toMatchObject({ tenant: 'acme', user: 'alice', fromLine: 'quick' });
    expect(event.summary).toContain('evt-0010');
    expect(event.refs).toContain('eventId:evt-0010');

    // The next request of the same user sees the summary; another user does not.
    const read = recording([{ text: 'ok' }]);
    await p.handle(alice, '查一下我明天的日程', { provider: read.provider });
    expect(read.systems[0]).toContain(event.summary);
    const other = recording([{ text: 'ok' }]);
    await p.handle(p.runtime.identities.resolve('bob', 'acme'), '查一下我明天的日程', {
      provider: other.provider,
    });
    expect(other.systems[0]).not.toContain(event.summary);
  });

  it('a raw record never appears on the context bus', async () => {
    const { p, onBus, invoke } = await setup();
    const alice = p.runtime.identities.resolve('alice', 'acme');
    const listed = await invoke('alice', 'acme', 'calendar_list', NOV);
    const record = (listed.output as { events: Record<string, unknown>[] }).events.find(
      (e) => e.id === 'evt-0010',
    )!;
    const script = recording([
      {
        tool_calls: [
          { name: 'calendar_list', arguments: NOV },
          {
            name: 'calendar_reschedule',
            arguments: { eventId: 'evt-0010', start: '2026-12-24T08:00:00Z', end: '2026-12-24T09:00:00Z' },
          },
        ],
      },
      { text: 'done' },
    ]);
    await p.handle(alice, '把项目启动会改到下午4点', { provider: script.provider });
    // A line that tries to publish a record is refused by the bus schema, and nothing is sent.
    expect(
      await p.context.publish({
        tenant: 'acme',
        user: 'alice',
        fromLine: 'quick',
        kind: 'calendar.listed',
        summary: JSON.stringify(record),
      }),
    ).toBe(false);
    expect(onBus.length).toBeGreaterThan(0);
    // What a line wrote (summary, refs) carries none of the record's fields.
    const wire = onBus.map((e) => `${e.summary} ${e.refs.join(' ')}`).join('\n');
    expect(wire).not.toContain(String(record['title']));
    for (const a of record['attendees'] as string[]) expect(wire).not.toMatch(new RegExp(`\\b${a}\\b`));
    expect(onBus.every((e) => !e.summary.includes('{'))).toBe(true);
  });

  it('with no model service the request degrades to a retrieval answer plus a ticket', async () => {
    const { p } = await setup();
    const alice = p.runtime.identities.resolve('alice', 'acme');
    const r = await p.handle(alice, '把项目启动会改到下午4点');
    expect(r.outcome).toBe('degraded');
    expect(r.ticketId).toBeTruthy();
    const ticket = await p.store.forTenant('acme').tickets.get(r.ticketId!);
    expect(ticket).toBeTruthy();
    expect(JSON.stringify(ticket)).toContain('把项目启动会改到下午4点');
    expect(await p.store.forTenant('globex').tickets.get(r.ticketId!)).toBeUndefined();
  });
});

const NATS_URL = process.env['TWINLINE_TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';
const natsUp = await new Promise<boolean>((resolve) => {
  const { hostname, port } = new URL(NATS_URL);
  const s = new Socket();
  s.setTimeout(1000);
  s.once('connect', () => {
    s.destroy();
    resolve(true);
  });
  s.once('error', () => resolve(false));
  s.once('timeout', () => {
    s.destroy();
    resolve(false);
  });
  s.connect(Number(port || 4222), hostname);
});
if (!natsUp)
  console.warn(`[test/lines] NATS not reachable at ${NATS_URL} — cross-process context bus test SKIPPED`);

describe.skipIf(!natsUp)('context bus over NATS between two platforms', () => {
  it('a write on one platform reaches the same user’s context on the other, as a summary', async () => {
    const env = { TWINLINE_NATS_URL: NATS_URL };
    const pa = closeAfter(await createPlatform(officeForTest().config, { env, quickQps: 1000 }));
    const pb = closeAfter(await createPlatform(officeForTest().config, { env, quickQps: 1000 }));
    const marker = `evt-${String(Math.floor(Math.random() * 9000) + 1000)}`;
    const arrived = new Promise<ContextEvent>((resolve) => {
      pb.context.bus.subscribe({ tenant: 'acme', user: 'alice' }, (e) => {
        if (e.summary.includes('evt-0010')) resolve(e);
      });
    });
    pb.context.watch('acme');
    await pb.context.bus.flush();
    const alice = pa.runtime.identities.resolve('alice', 'acme');
    const script = new ScriptedProvider([
      {
        tool_calls: [
          {
            name: 'calendar_reschedule',
            arguments: { eventId: 'evt-0010', start: '2026-12-24T08:00:00Z', end: '2026-12-24T09:00:00Z' },
          },
        ],
      },
      { text: `moved ${marker}` },
    ]);
    const r = await pa.handle(alice, '把项目启动会改到下午4点', { provider: script });
    expect(r.executed).toEqual(['calendar_reschedule']);
    const event = await arrived;
    expect(event.fromLine).toBe('quick');
    expect(pb.context.promptLine('acme', 'alice')).toContain('evt-0010');
    expect(pb.context.promptLine('acme', 'bob')).not.toContain('evt-0010');
  });
});
