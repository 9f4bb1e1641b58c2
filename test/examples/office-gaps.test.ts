import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ctxFor, type OfficeHarness, openOffice, who } from '../policy/office.js';

/**
 * The office example's row-level rules, through the real gateway and policy over the real data:
 * an event is cancelled only by its organiser or its only attendee; a renewal draft only for a
 * customer the caller may see (and a name they may not see reads like one that does not exist);
 * a sales manager sees their own region's customers.
 */
let office: OfficeHarness;
let n = 0;
beforeAll(async () => {
  office = await openOffice();
});
afterAll(async () => {
  await office.close();
});

const call = (user: string, tenant: string, tool: string, args: unknown) =>
  office.gateway.invoke({ id: `gap-${++n}`, name: tool, arguments: args }, ctxFor(who(user, tenant)));

interface Event {
  id: string;
  attendees: string[];
  organizer: string;
  status: string;
}
const events = async (user: string, tenant: string) =>
  (
    (await call(user, tenant, 'calendar_list', { from: '2026-11-01', to: '2026-12-31' })).output as {
      events: Event[];
    }
  ).events;

describe('calendar_cancel: only events you organise or attend alone', () => {
  it('decides every acme and globex event by its organiser and attendees, never by the arguments', async () => {
    for (const [tenant, users] of [
      ['acme', ['alice', 'bob', 'carol', 'mallory']],
      ['globex', ['gina', 'hank']],
    ] as const) {
      const all = await events(users[0], tenant);
      expect(all.length).toBeGreaterThan(10);
      for (const e of all.slice(0, 25)) {
        for (const user of users) {
          const mine = e.organizer === user || (e.attendees.length === 1 && e.attendees[0] === user);
          if (mine) continue; // cancelling changes the data; the allowed side is checked below
          const r = await call(user, tenant, 'calendar_cancel', { eventId: e.id });
          expect({ event: e.id, user, status: r.status }).toEqual({ event: e.id, user, status: 'failed' });
        }
      }
      // Still scheduled: no refused attempt changed anything.
      expect((await events(users[0], tenant)).filter((e) => e.status !== 'scheduled')).toEqual([]);
    }
  });

  it('a stranger’s refusal reads exactly like an event that does not exist', async () => {
    const other = await call('alice', 'acme', 'calendar_cancel', { eventId: 'evt-0003' });
    const missing = await call('alice', 'acme', 'calendar_cancel', { eventId: 'evt-0999' });
    expect(other.error?.message.replace('evt-0003', 'X')).toBe(
      missing.error?.message.replace('evt-0999', 'X'),
    );
    expect(other.modelContent).toMatch(/that you organise or attend alone/);
  });

  it('the organiser, and a sole attendee, may cancel', async () => {
    const alice = await call('alice', 'acme', 'calendar_cancel', { eventId: 'evt-0001' });
    expect(alice.status).toBe('executed');
    const alone = (await events('gina', 'globex')).find(
      (e) => e.attendees.length === 1 && e.attendees[0] === 'gina',
    );
    expect(alone).toBeDefined();
    expect((await call('gina', 'globex', 'calendar_cancel', { eventId: alone!.id })).status).toBe('executed');
  });
});

describe('renewal_message_draft: only for customers the caller may see', () => {
  it('alice (employee) drafts for her own customer, not for ken’s, and cannot tell ken’s from a made-up one', async () => {
    expect(
      (await call('alice', 'acme', 'renewal_message_draft', { customer: 'Acme Client Hailan Logistics' }))
        .status,
    ).toBe('executed');
    const kens = await call('alice', 'acme', 'renewal_message_draft', {
      customer: 'Acme Client Qingfeng Foods',
    });
    const made = await call('alice', 'acme', 'renewal_message_draft', {
      customer: 'Acme Client Nowhere Ltd',
    });
    expect(kens.status).toBe('failed');
    expect(made.status).toBe('failed');
    expect(kens.error?.message.replace('Qingfeng Foods', 'X')).toBe(
      made.error?.message.replace('Nowhere Ltd', 'X'),
    );
    // globex's customer is as unknown to acme as a made-up one.
    const globex = await call('alice', 'acme', 'renewal_message_draft', {
      customer: 'Globex Client Tianfu Tea',
    });
    expect(globex.status).toBe('failed');
  });

  it('bob (east manager) drafts for the east region, not the west', async () => {
    expect(
      (await call('bob', 'acme', 'renewal_message_draft', { customer: 'Acme Client Baiyun Textiles' }))
        .status,
    ).toBe('executed');
    expect(
      (await call('bob', 'acme', 'renewal_message_draft', { customer: 'Acme Client Zhonghua Trading' }))
        .status,
    ).toBe('failed');
  });
});

describe('customer_lookup: managers see their own region', () => {
  it('bob asking for the west region is refused by policy; asking for everything returns only the east', async () => {
    const west = await call('bob', 'acme', 'customer_lookup', { region: 'west' });
    expect(west.status).toBe('denied');
    expect(west.decision.ruleId).toBe('crm.manager-own-region');
    const all = await call('bob', 'acme', 'customer_lookup', {});
    const customers = (all.output as { customers: { region: string }[] }).customers;
    expect(customers.length).toBeGreaterThan(0);
    expect(new Set(customers.map((c) => c.region))).toEqual(new Set(['east']));
    // A west-region name returns nothing, as if it did not exist.
    const byName = await call('bob', 'acme', 'customer_lookup', { name: 'Zhonghua' });
    expect((byName.output as { customers: unknown[] }).customers).toEqual([]);
  });
});
