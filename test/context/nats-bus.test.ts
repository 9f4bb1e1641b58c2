import { Socket } from 'node:net';
import { connect } from 'nats';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ContextBus,
  type ContextEvent,
  contextSubject,
  type NatsContextBus,
  openContextBus,
} from '../../src/context/index.js';

const NATS_URL = process.env['TWINLINE_TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
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
}

const up = await reachable(NATS_URL);
if (!up) console.warn(`[test/context] NATS not reachable at ${NATS_URL} — NATS context bus tests SKIPPED`);

// unique tenant per run so parallel runs on one server never see each other's events
const tenant = `t${process.pid}x${Date.now().toString(36)}`;
const event = (over: Partial<ContextEvent> = {}): ContextEvent => ({
  tenant,
  user: 'u1',
  fromLine: 'quick',
  kind: 'calendar.rescheduled',
  summary: 'user moved the project kick-off to 4 pm',
  refs: ['event:42'],
  time: new Date().toISOString(),
  ...over,
});

function nextEvent(bus: ContextBus, filter: Parameters<ContextBus['subscribe']>[0]): Promise<ContextEvent> {
  return new Promise((resolve) => {
    const sub = bus.subscribe(filter, (e) => {
      sub.unsubscribe();
      resolve(e);
    });
  });
}

describe.skipIf(!up)('NATS context bus', () => {
  const opened: ContextBus[] = [];
  const open = async () => {
    const bus = await openContextBus({ env: { TWINLINE_NATS_URL: NATS_URL } });
    opened.push(bus);
    return bus;
  };
  afterAll(async () => {
    for (const b of opened) await b.close();
  });

  it('carries an event from one bus instance to another', async () => {
    const a = await open();
    const b = await open();
    expect(b.constructor.name).toBe('NatsContextBus');
    const got = nextEvent(b, { tenant, user: 'u1' });
    await (b as NatsContextBus).flush(); // subscription registered on the server before publishing
    const sent = event();
    await a.publish(sent);
    await a.flush();
    expect(await got).toEqual(sent);
  });

  it('keeps tenants apart and filters by user', async () => {
    const a = await open();
    const b = await open();
    const seen: ContextEvent[] = [];
    b.subscribe({ tenant, user: 'u2' }, (e) => {
      seen.push(e);
    });
    const marker = nextEvent(b, { tenant, user: 'u2', kinds: ['test.marker'] });
    await b.flush();
    await a.publish(event({ tenant: `${tenant}other`, user: 'u2', summary: 'other tenant' }));
    await a.publish(event({ user: 'u3', summary: 'other user' }));
    await a.publish(event({ user: 'u2', kind: 'test.marker', summary: 'marker' }));
    await a.flush();
    await marker;
    expect(seen.map((e) => e.summary)).toEqual(['marker']);
  });

  it('refuses a raw record before it reaches NATS, and drops one injected around the bus', async () => {
    const a = await open();
    const b = (await open()) as NatsContextBus;
    const seen: ContextEvent[] = [];
    b.subscribe({ tenant, user: 'u4' }, (e) => {
      seen.push(e);
    });
    await b.flush();
    await expect(
      a.publish({ ...event({ user: 'u4' }), raw: { salary: 30000 } } as unknown as ContextEvent),
    ).rejects.toThrow(/Unrecognized key|raw/);
    // a publisher that skips the bus: its message is validated on arrival and dropped
    const raw = await connect({ servers: NATS_URL });
    raw.publish(
      contextSubject(tenant, 'u4'),
      new TextEncoder().encode(JSON.stringify({ ...event({ user: 'u4' }), rows: [{ a: 1 }] })),
    );
    raw.publish(contextSubject(tenant, 'u4'), new TextEncoder().encode('not json'));
    await raw.flush();
    await raw.close();
    const marker = nextEvent(b, { tenant, user: 'u4', kinds: ['test.marker'] });
    await b.flush();
    await a.publish(event({ user: 'u4', kind: 'test.marker', summary: 'marker' }));
    await a.flush();
    await marker;
    expect(seen.map((e) => e.summary)).toEqual(['marker']);
    expect(b.rejectedInboundCount).toBe(2);
  });
});
