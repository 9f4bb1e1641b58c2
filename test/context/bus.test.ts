import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ContextEvent,
  ContextEventRejectedError,
  InProcessContextBus,
  makeContextEvent,
  openContextBus,
  validateContextEvent,
} from '../../src/context/index.js';

const base: ContextEvent = {
  tenant: 'acme',
  user: 'u42',
  fromLine: 'quick',
  kind: 'calendar.rescheduled',
  summary: 'user moved the project kick-off to 4 pm',
  refs: ['event:42'],
  time: '2026-11-30T06:00:00.000Z',
};

describe('context event validation', () => {
  it('accepts a summary event and returns a frozen copy', () => {
    const ev = validateContextEvent(base);
    expect(ev).toEqual(base);
    expect(Object.isFrozen(ev)).toBe(true);
    expect(Object.isFrozen(ev.refs)).toBe(true);
  });

  const rejected: ReadonlyArray<readonly [string, unknown, string]> = [
    [
      'an extra field carrying a record',
      { ...base, record: { id: 1, amount: 5000 } },
      'context.event_invalid',
    ],
    ['an object in refs', { ...base, refs: [{ id: 'x', email: 'a@b.co' }] }, 'context.event_invalid'],
    ['a nested array in refs', { ...base, refs: [['a', 'b']] }, 'context.event_invalid'],
    ['an over-long summary', { ...base, summary: '会'.repeat(281) }, 'context.event_invalid'],
    ['a summary that is an object', { ...base, summary: { text: 'x' } }, 'context.event_invalid'],
    [
      'an email in the summary',
      { ...base, summary: 'sent the quote to li.wei@example.com' },
      'context.personal_data',
    ],
    [
      'a mobile number in the summary',
      { ...base, summary: '已通知客户 13812345678' },
      'context.personal_data',
    ],
    ['a +86 number', { ...base, summary: 'called +86 138 1234 5678 about renewal' }, 'context.personal_data'],
    [
      'a resident ID number',
      { ...base, summary: '员工 11010519491231002X 的考勤已更正' },
      'context.personal_data',
    ],
    ['a card number', { ...base, summary: 'paid with 6222 0212 3456 7890 128' }, 'context.personal_data'],
    ['an ID number in a ref', { ...base, refs: ['emp:11010519491231002X'] }, 'context.personal_data'],
    ['an email in a ref (ids have no @)', { ...base, refs: ['li.wei@example.com'] }, 'context.event_invalid'],
    ['a phone number as a ref', { ...base, refs: ['13812345678'] }, 'context.personal_data'],
    [
      'a JSON record in the summary',
      { ...base, summary: 'rows: {"name":"Li","salary":30000}' },
      'context.raw_record',
    ],
    [
      'key=value dump',
      { ...base, summary: 'name=Li, dept=Sales, salary=30000, level=P7' },
      'context.raw_record',
    ],
    ['a tenant with a subject wildcard', { ...base, tenant: 'acme.>' }, 'context.event_invalid'],
    ['a line that does not exist', { ...base, fromLine: 'admin' }, 'context.event_invalid'],
    ['a missing time', { ...base, time: undefined }, 'context.event_invalid'],
    [
      'too many refs',
      { ...base, refs: Array.from({ length: 17 }, (_, i) => `r${i}`) },
      'context.event_invalid',
    ],
  ];

  it.each(rejected)('rejects %s', (_name, payload, code) => {
    try {
      validateContextEvent(payload);
      expect.unreachable('should be rejected');
    } catch (err) {
      expect(err).toBeInstanceOf(ContextEventRejectedError);
      expect((err as ContextEventRejectedError).code).toBe(code);
      expect((err as ContextEventRejectedError).where).toMatch(/^context event field /);
    }
  });

  it('makeContextEvent stamps the time and validates', () => {
    const ev = makeContextEvent(
      {
        tenant: 'acme',
        user: 'u1',
        fromLine: 'deep',
        kind: 'task.completed',
        summary: 'finished the Q3 conflict analysis',
      },
      new Date('2026-11-30T06:00:00Z'),
    );
    expect(ev).toMatchObject({ time: '2026-11-30T06:00:00.000Z', refs: [] });
    expect(() =>
      makeContextEvent({
        tenant: 'acme',
        user: 'u1',
        fromLine: 'deep',
        kind: 'x',
        summary: 'mail li@example.com',
      }),
    ).toThrow(ContextEventRejectedError);
  });

  it('long order numbers and ids that fail the check digits are not personal data', () => {
    const ev = validateContextEvent({
      ...base,
      summary: 'order 20261130000123 and batch 6222021234567890121 were re-queued',
      refs: ['order:20261130000123', 'emp:110105194912310021'],
    });
    expect(ev.refs).toHaveLength(2);
  });
});

describe('UUIDs are ids, not phone or card numbers', () => {
  // Random v4 ids whose digit runs read as a mobile or card number (one id in ~300 does).
  const ids = [
    '517c8c70-19ae-4ea6-8f32-022399755442',
    'c1402971-7361-489d-9561-18cd652cd900',
    '43c2e173-1011-4671-a571-191878103650',
  ];

  it.each(ids)('a task summary and ref naming %s pass', (id) => {
    const ev = validateContextEvent({
      ...base,
      summary: `task ${id} completed: analyse east sales`,
      refs: [`task:${id}`],
    });
    expect(ev.refs).toEqual([`task:${id}`]);
  });

  it('a personal number beside a UUID is still refused', () => {
    for (const summary of [
      `task ${ids[1]} completed, call 13812345678`,
      `task ${ids[0]}: card 4111 1111 1111 1111`,
      `${ids[2]} li@example.com`,
    ]) {
      expect(() => validateContextEvent({ ...base, summary }), summary).toThrow(ContextEventRejectedError);
    }
  });

  it('every random UUID passes (property)', () => {
    fc.assert(
      fc.property(fc.uuid(), (id) => {
        expect(
          validateContextEvent({ ...base, summary: `task ${id} failed`, refs: [`task:${id}`] }).summary,
        ).toContain(id);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('a raw record never appears on the bus (property)', () => {
  const record = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), {
    minKeys: 1,
    maxKeys: 6,
  });

  it('an arbitrary object published as an event is rejected and nothing is delivered', async () => {
    const bus = new InProcessContextBus();
    const seen: unknown[] = [];
    bus.subscribe({ tenant: 'acme' }, (e) => {
      seen.push(e);
    });
    await fc.assert(
      fc.asyncProperty(fc.object({ maxDepth: 3 }), async (obj) => {
        await expect(bus.publish(obj as unknown as ContextEvent)).rejects.toBeInstanceOf(
          ContextEventRejectedError,
        );
      }),
      { numRuns: 300 },
    );
    expect(seen).toEqual([]);
  });

  it('a valid event with a record attached anywhere is rejected', async () => {
    const bus = new InProcessContextBus();
    const seen: unknown[] = [];
    bus.subscribe({ tenant: 'acme' }, (e) => {
      seen.push(e);
    });
    const placements = fc.oneof(
      record.map((r) => ({ ...base, payload: r })),
      record.map((r) => ({ ...base, refs: [...base.refs, r] })),
      record.map((r) => ({ ...base, summary: `${base.summary} ${JSON.stringify(r)}` })),
      record.map((r) => ({ ...base, summary: r })),
      fc
        .tuple(fc.string({ minLength: 1, maxLength: 10 }), record)
        .map(([k, r]) => ({ ...base, [`x_${k}`]: r })),
    );
    await fc.assert(
      fc.asyncProperty(placements, async (ev) => {
        await expect(bus.publish(ev as unknown as ContextEvent)).rejects.toBeInstanceOf(
          ContextEventRejectedError,
        );
      }),
      { numRuns: 500 },
    );
    expect(seen).toEqual([]);
  });

  it('whatever is delivered has exactly the event fields, with string values and string refs', async () => {
    const bus = new InProcessContextBus();
    const seen: ContextEvent[] = [];
    bus.subscribe({ tenant: 'acme' }, (e) => {
      seen.push(e);
    });
    const summary = fc.string({ minLength: 1, maxLength: 300 });
    await fc.assert(
      fc.asyncProperty(
        summary,
        fc.array(fc.string({ minLength: 1, maxLength: 20 }), { maxLength: 4 }),
        async (s, refs) => {
          await bus.publish({ ...base, summary: s, refs }).catch((e) => {
            if (!(e instanceof ContextEventRejectedError)) throw e;
          });
        },
      ),
      { numRuns: 500 },
    );
    for (const e of seen) {
      expect(Object.keys(e).sort()).toEqual([
        'fromLine',
        'kind',
        'refs',
        'summary',
        'tenant',
        'time',
        'user',
      ]);
      expect(e.summary.length).toBeLessThanOrEqual(280);
      for (const r of e.refs) expect(typeof r).toBe('string');
    }
  });
});

describe('in-process bus', () => {
  it('delivers to matching subscribers only, never across tenants', async () => {
    const bus = await openContextBus({ env: {} });
    expect(bus).toBeInstanceOf(InProcessContextBus);
    const acme: string[] = [];
    const other: string[] = [];
    const onlyDeep: string[] = [];
    bus.subscribe({ tenant: 'acme', user: 'u42' }, (e) => {
      acme.push(e.summary);
    });
    bus.subscribe({ tenant: 'globex' }, (e) => {
      other.push(e.summary);
    });
    bus.subscribe({ tenant: 'acme', fromLine: 'deep' }, (e) => {
      onlyDeep.push(e.summary);
    });
    await bus.publish(base);
    await bus.publish({ ...base, user: 'u7', summary: 'another user' });
    expect(acme).toEqual([base.summary]);
    expect(other).toEqual([]);
    expect(onlyDeep).toEqual([]);
    await bus.close();
  });

  it('a throwing handler does not stop delivery to others', async () => {
    const errors: unknown[] = [];
    const bus = new InProcessContextBus((e) => errors.push(e));
    const got: string[] = [];
    bus.subscribe({ tenant: 'acme' }, () => {
      throw new Error('boom');
    });
    bus.subscribe({ tenant: 'acme' }, (e) => {
      got.push(e.kind);
    });
    await bus.publish(base);
    expect(got).toEqual(['calendar.rescheduled']);
    expect(errors).toHaveLength(1);
  });

  it('unsubscribe stops delivery', async () => {
    const bus = new InProcessContextBus();
    let n = 0;
    const sub = bus.subscribe({ tenant: 'acme' }, () => {
      n++;
    });
    await bus.publish(base);
    sub.unsubscribe();
    await bus.publish(base);
    expect(n).toBe(1);
  });
});
