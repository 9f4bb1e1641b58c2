import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayResult, ToolGateway, withoutArgs } from '../../src/gateway/index.js';
import type { Store } from '../../src/store/index.js';
import { ToolRegistry } from '../../src/tools/index.js';
import { alice, carol, ExecutionLog, openTempStore, sampleTools } from './sample-tools.js';

let store: Store;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ store, cleanup } = await openTempStore());
});
afterAll(async () => {
  await cleanup();
});

/** One attempt per outcome the gateway can produce, cycled over N concurrent calls. */
const MIX = [
  { name: 'echo', args: { text: 'a' }, identity: alice, status: 'executed' },
  { name: 'echo', args: { text: 1 }, identity: alice, status: 'denied' },
  { name: 'ledger_read', args: {}, identity: alice, status: 'denied' },
  { name: 'payroll_export', args: { month: '2026-11' }, identity: carol, status: 'review' },
  { name: 'explode', args: {}, identity: alice, status: 'failed' },
  { name: 'stall', args: {}, identity: alice, status: 'timeout' },
  { name: 'no_such_tool', args: {}, identity: alice, status: 'denied' },
] as const;

describe('audit completeness', () => {
  it('200 concurrent mixed calls leave exactly 200 records, each with its decision path', async () => {
    const log = new ExecutionLog();
    const gateway = new ToolGateway({
      tools: new ToolRegistry().registerAll(sampleTools(log)),
      audit: store.audit,
      reviews: store.reviews,
    });
    const N = 200;
    const sessionId = 'audit-completeness';
    const results: GatewayResult[] = await Promise.all(
      Array.from({ length: N }, (_, i) => {
        const m = MIX[i % MIX.length]!;
        return gateway.invoke(
          { id: `c-${i}`, name: m.name, arguments: m.args },
          { identity: m.identity, sessionId },
        );
      }),
    );
    results.forEach((r, i) => {
      expect(r.status).toBe(MIX[i % MIX.length]!.status);
    });
    await store.audit.flush();
    const records = (await store.audit.query({ limit: 10_000 })).filter((r) => r.sessionId === sessionId);
    expect(records).toHaveLength(N);
    const byCall = new Map(records.map((r) => [r.callId, r]));
    expect(byCall.size).toBe(N);
    for (const r of results) {
      const rec = byCall.get(r.callId)!;
      expect(rec.id).toBe(r.auditId);
      expect(rec.status).toBe(r.status);
      expect(rec.tool).toBe(r.tool);
      expect(rec.decisionPath).toEqual(withoutArgs(r.path));
      expect(rec.decisionPath.map((d) => d.ruleId)).toEqual(r.path.map((d) => d.ruleId));
      expect(rec.argsHash).toMatch(/^[0-9a-f]{64}$/);
      expect(rec.resultSummary.length).toBeGreaterThan(0);
    }
    // No audit record copies argument values.
    const text = JSON.stringify(records);
    expect(text).not.toContain('2026-11"');
    expect(text).not.toContain('updatedArgs');
    expect(log.count('payroll_export')).toBe(0);
  });
});
