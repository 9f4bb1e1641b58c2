import { describe, expect, it } from 'vitest';
import {
  ControlBus,
  type ControlCancelEnvelope,
  type ControlRequestEnvelope,
  ProtocolError,
} from '../../src/protocol/index.js';

type Sent = ControlRequestEnvelope | ControlCancelEnvelope;

function makeBus(defaultTimeoutMs = 1000) {
  const sent: Sent[] = [];
  const logs: string[] = [];
  const bus = new ControlBus({ send: (e) => sent.push(e), defaultTimeoutMs, log: (m) => logs.push(m) });
  return { bus, sent, logs };
}

const canUse = {
  subtype: 'can_use_tool' as const,
  tool_name: 'write_file',
  input: { path: 'a' },
  tool_use_id: 't1',
};

function lastId(sent: Sent[]): string {
  const e = sent.at(-1);
  if (!e) throw new Error('nothing sent');
  return e.request_id;
}

describe('ControlBus', () => {
  it('resolves with the success payload echoing the request id', async () => {
    const { bus, sent } = makeBus();
    const p = bus.request(canUse);
    const id = lastId(sent);
    expect(sent[0]).toMatchObject({ type: 'control_request', request: canUse });
    bus.handleResponse({
      type: 'control_response',
      response: { subtype: 'success', request_id: id, response: { behavior: 'allow' } },
    });
    await expect(p).resolves.toEqual({ behavior: 'allow' });
    expect(bus.pendingCount).toBe(0);
  });

  it('rejects on an error response (string or object error)', async () => {
    const { bus, sent } = makeBus();
    const p1 = bus.request(canUse);
    bus.handleResponse({
      type: 'control_response',
      response: { subtype: 'error', request_id: lastId(sent), error: 'nope' },
    });
    await expect(p1).rejects.toMatchObject({
      code: 'protocol.error_response',
      message: expect.stringContaining('nope'),
    });
    const p2 = bus.request(canUse);
    bus.handleResponse({
      type: 'control_response',
      response: { subtype: 'error', request_id: lastId(sent), error: { message: 'obj' } },
    });
    await expect(p2).rejects.toMatchObject({ code: 'protocol.error_response' });
  });

  it('times out, withdraws the request from the host, and drops the late answer', async () => {
    const { bus, sent, logs } = makeBus(5);
    const p = bus.request(canUse);
    const id = lastId(sent);
    await expect(p).rejects.toMatchObject({ code: 'protocol.timeout' });
    expect(sent.at(-1)).toEqual({ type: 'control_cancel_request', request_id: id });
    expect(
      bus.handleResponse({
        type: 'control_response',
        response: { subtype: 'success', request_id: id, response: {} },
      }),
    ).toBe(false);
    expect(logs.at(-1)).toMatch(/already settled/);
  });

  it('cancels through an AbortSignal, before and after sending', async () => {
    const { bus, sent } = makeBus();
    const ac = new AbortController();
    const p = bus.request(canUse, { signal: ac.signal });
    ac.abort();
    await expect(p).rejects.toMatchObject({ code: 'protocol.cancelled' });
    expect(sent.at(-1)?.type).toBe('control_cancel_request');
    await expect(bus.request(canUse, { signal: ac.signal })).rejects.toMatchObject({
      code: 'protocol.cancelled',
    });
    expect(bus.pendingCount).toBe(0);
  });

  it('logs and drops a response to an unknown id', () => {
    const { bus, logs } = makeBus();
    expect(
      bus.handleResponse({
        type: 'control_response',
        response: { subtype: 'success', request_id: 'ghost', response: {} },
      }),
    ).toBe(false);
    expect(logs[0]).toMatch(/unknown request_id "ghost"/);
  });

  it('closing rejects everything pending with host_gone and refuses new requests', async () => {
    const { bus } = makeBus();
    const ps = [bus.request(canUse), bus.request(canUse), bus.request(canUse)];
    bus.close();
    for (const p of ps) await expect(p).rejects.toMatchObject({ code: 'protocol.host_gone' });
    await expect(bus.request(canUse)).rejects.toBeInstanceOf(ProtocolError);
    expect(bus.pendingCount).toBe(0);
  });

  it('a send that throws settles the request as host_gone', async () => {
    const bus = new ControlBus({
      send: () => {
        throw new Error('EPIPE');
      },
      defaultTimeoutMs: 1000,
    });
    await expect(bus.request(canUse)).rejects.toMatchObject({ code: 'protocol.host_gone' });
    expect(bus.pendingCount).toBe(0);
  });
});
