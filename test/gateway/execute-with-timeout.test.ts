import { describe, expect, it } from 'vitest';
import { executeWithTimeout } from '../../src/gateway/index.js';
import type { ToolExecutionContext, ToolSpec } from '../../src/tools/index.js';

const base = {
  identity: { tenant: 'acme', user: 'alice', roles: [], dataLevel: 'L1' },
  sessionId: 's',
  callId: 'c',
} as unknown as Omit<ToolExecutionContext, 'signal'>;

function tool(execute: ToolSpec['execute'], timeoutMs = 1000): ToolSpec {
  return { name: 't', timeoutMs, execute } as unknown as ToolSpec;
}

describe('executeWithTimeout', () => {
  it('gives the tool a live signal that aborts on timeout', async () => {
    let seen: AbortSignal | undefined;
    const outcome = await executeWithTimeout(
      tool((_args, ctx) => {
        seen = ctx.signal;
        return new Promise(() => {});
      }, 20),
      {},
      base,
      undefined,
    );
    expect(outcome.status).toBe('timeout');
    expect(seen?.aborted).toBe(true);
  });

  it('hands a tool that reads its signal only after the caller aborted an aborted signal', async () => {
    const caller = new AbortController();
    let late: (() => AbortSignal) | undefined;
    const pending = executeWithTimeout(
      tool(async (_args, ctx) => {
        late = () => ctx.signal;
        await new Promise((r) => setTimeout(r, 30));
        return 1;
      }),
      {},
      base,
      caller.signal,
    );
    await new Promise((r) => setTimeout(r, 5));
    caller.abort('stop');
    expect((await pending).status).toBe('cancelled');
    expect(late?.().aborted).toBe(true);
    expect(late?.().reason).toBe('stop');
  });

  it('keeps the signal an ordinary property of the context', async () => {
    const outcome = await executeWithTimeout(
      tool(async (_args, ctx) => Object.keys(ctx).length),
      {},
      base,
      undefined,
    );
    expect(outcome).toEqual({ status: 'executed', output: 4 });
  });
});
