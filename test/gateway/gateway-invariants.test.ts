import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_LEVELS, dataLevelRank, type Identity } from '../../src/core/index.js';
import { ToolGateway } from '../../src/gateway/index.js';
import type { AuditRecord, AuditSink, Store } from '../../src/store/index.js';
import { ToolRegistry } from '../../src/tools/index.js';
import { ExecutionLog, openTempStore, sampleTools } from './sample-tools.js';

let store: Store;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ store, cleanup } = await openTempStore());
});
afterAll(async () => {
  await cleanup();
});

const ROLES = ['employee', 'finance_analyst', 'intruder', 'admin'];
const TOOL_NAMES = [
  'echo',
  'ledger_read',
  'payroll_export',
  'explode',
  'globex_only',
  'no_such_tool',
  'ECHO',
  '',
];

const identity = fc.record({
  tenant: fc.constantFrom('acme', 'globex'),
  user: fc.constantFrom('u1', 'u2'),
  roles: fc.uniqueArray(fc.constantFrom(...ROLES), { maxLength: 3 }),
  dataLevel: fc.constantFrom(...DATA_LEVELS),
  attributes: fc.constant({}),
}) as fc.Arbitrary<Identity>;

// Whatever a hostile model proposes: right-shaped, wrong-shaped and junk arguments.
const args = fc.oneof(
  fc.record(
    { text: fc.string({ maxLength: 5 }), times: fc.integer({ min: -1, max: 5 }) },
    { requiredKeys: [] },
  ),
  fc.record({ month: fc.constantFrom('2026-11', 'nope') }),
  fc.constant({}),
  fc.anything({ maxDepth: 2 }),
);

describe('gateway invariants under hostile calls', () => {
  it('exactly one audit record per attempt; nothing runs unless every stage allowed it', async () => {
    const log = new ExecutionLog();
    const registry = new ToolRegistry().registerAll(sampleTools(log));
    const seen: AuditRecord[] = [];
    const sink: AuditSink = {
      record: (r) => {
        seen.push(r);
        store.audit.record(r);
      },
      flush: () => store.audit.flush(),
    };
    const gateway = new ToolGateway({ tools: registry, audit: sink, reviews: store.reviews });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(identity, fc.constantFrom(...TOOL_NAMES), args, async (id, name, a) => {
        const before = log.calls.length;
        const auditsBefore = seen.length;
        const r = await gateway.invoke(
          { id: `p-${++n}`, name, arguments: a },
          { identity: id, sessionId: 'prop' },
        );
        expect(seen.length).toBe(auditsBefore + 1);
        expect(seen.at(-1)!.callId).toBe(r.callId);
        const ran = log.calls.length - before;
        const tool = registry.get(name);
        if (r.status === 'executed' || r.status === 'failed') {
          expect(ran).toBeLessThanOrEqual(1);
        } else {
          expect(ran).toBe(0);
        }
        if (ran === 1) {
          expect(r.path.every((d) => d.verdict === 'allow')).toBe(true);
          expect(tool).toBeDefined();
          expect(tool!.requiresReview).toBe(false);
          expect(id.roles.some((role) => tool!.permissions.allowedRoles.includes(role))).toBe(true);
          expect(dataLevelRank(id.dataLevel)).toBeGreaterThanOrEqual(
            dataLevelRank(tool!.permissions.requiredDataLevel),
          );
          expect(log.calls.at(-1)!.ctx.identity).toBe(id);
        }
        if (!tool) expect(r.modelContent).toBe(`Tool ${name} is not available.`);
        if (r.status !== 'executed') expect(r.output).toBeUndefined();
      }),
      { numRuns: 300 },
    );
    await store.audit.flush();
    const stored = (await store.audit.query({ limit: 10_000 })).filter((r) => r.sessionId === 'prop');
    expect(stored).toHaveLength(n);
  });
});
