import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/gateway/index.js';
import { ControlBus, type ControlRequestEnvelope, HostApprover } from '../../src/protocol/index.js';

function collectGarbage(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

async function settleHeap(gc: (() => void) | undefined): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage().heapUsed;
}

/** A tiny deterministic PRNG so a failure can be replayed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function approvalRequest(i: number): ApprovalRequest {
  return {
    call: { id: `call-${i}`, name: 'write_file', arguments: { path: `f${i}` } },
    tool: { name: 'write_file', description: 'writes a file' } as ApprovalRequest['tool'],
    args: { path: `f${i}` },
    decision: { verdict: 'ask', stage: 'approval', ruleId: 'mode.default', reason: 'edit needs approval' },
    ctx: { identity: { tenant: 't', user: 'u', roles: [], dataLevel: 'L1', attributes: {} }, sessionId: 's' },
  };
}

describe('ControlBus soak', () => {
  it('100,000 permission requests: every one settles once, nothing stays pending, heap returns to baseline', async () => {
    const TOTAL = 100_000;
    const BATCH = 5_000;
    const DISCONNECT_AT = 70_000;
    const rand = prng(42);
    const gc = collectGarbage();

    let bus: ControlBus;
    const hostTimers = new Set<ReturnType<typeof setTimeout>>();
    let hostConnected = true;
    let dropped = 0;
    const answer = (delay: number, response: () => void): void => {
      const t = setTimeout(() => {
        hostTimers.delete(t);
        if (hostConnected) response();
      }, delay);
      hostTimers.add(t);
    };
    const host = (env: ControlRequestEnvelope): void => {
      const id = env.request_id;
      const r = rand();
      const ok = (behavior: 'allow' | 'deny') => () => {
        if (
          !bus.handleResponse({
            type: 'control_response',
            response: { subtype: 'success', request_id: id, response: { behavior, message: 'm' } },
          })
        )
          dropped++;
      };
      if (r < 0.45) answer(Math.floor(rand() * 3), ok('allow'));
      else if (r < 0.6) answer(Math.floor(rand() * 3), ok('deny'));
      else if (r < 0.7) {
        answer(Math.floor(rand() * 3), () => {
          bus.handleResponse({
            type: 'control_response',
            response: { subtype: 'error', request_id: id, error: 'boom' },
          });
        });
      } else if (r < 0.78) {
        // answered twice: the second is dropped
        answer(1, ok('allow'));
        answer(2, ok('deny'));
      } else if (r < 0.85) {
        // answers garbage
        answer(1, () => {
          bus.handleResponse({
            type: 'control_response',
            response: { subtype: 'success', request_id: id, response: 42 },
          });
        });
      }
      // else: never answers (timeout or cancellation decides)
    };

    const baseline = await settleHeap(gc);
    bus = new ControlBus({
      send: (env) => {
        if (env.type === 'control_request') host(env);
      },
      defaultTimeoutMs: 8,
      log: () => undefined,
    });
    const approver = new HostApprover(bus, { timeoutMs: 8 });

    const settledCount = new Uint8Array(TOTAL);
    const outcomes = { allow: 0, deny: 0 };
    for (let start = 0; start < TOTAL; start += BATCH) {
      const batch: Promise<void>[] = [];
      // One turn's signal is shared by its calls; a few calls get their own to be cancelled.
      const turn = new AbortController();
      for (let i = start; i < Math.min(start + BATCH, TOTAL); i++) {
        if (i === DISCONNECT_AT) {
          hostConnected = false;
          bus.close();
        }
        let signal = turn.signal;
        if (rand() < 0.1) {
          const ac = new AbortController();
          signal = ac.signal;
          const t = setTimeout(() => ac.abort(), Math.floor(rand() * 3));
          hostTimers.add(t);
        }
        batch.push(
          approver.request(approvalRequest(i), signal).then((a) => {
            settledCount[i] = (settledCount[i] ?? 0) + 1;
            outcomes[a.behavior]++;
          }),
        );
      }
      await Promise.all(batch);
      expect(bus.pendingCount).toBe(0);
    }
    for (const t of hostTimers) clearTimeout(t);
    hostTimers.clear();

    expect(settledCount.every((c) => c === 1)).toBe(true);
    expect(outcomes.allow + outcomes.deny).toBe(TOTAL);
    // after the disconnect every request was denied (fail closed)
    expect(outcomes.deny).toBeGreaterThan(TOTAL - DISCONNECT_AT);
    expect(dropped).toBeGreaterThan(0);
    expect(bus.pendingCount).toBe(0);

    const after = await settleHeap(gc);
    const growthMiB = (after - baseline) / 1024 / 1024;
    // With gc available the heap returns to within a few MiB; without it, bound conservatively.
    expect(growthMiB).toBeLessThan(gc ? 8 : 64);
  }, 60_000);
});
