import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StageDecision } from '../../src/core/index.js';
import { auditArgumentRedactor } from '../../src/gates/index.js';
import { type CallContext, type GatewayObserver, ToolGateway } from '../../src/gateway/index.js';
import type { AuditRecord } from '../../src/store/index.js';
import { ToolRegistry } from '../../src/tools/index.js';
import { alice, carol, ExecutionLog, sampleTools } from './sample-tools.js';

// The gateway's telemetry port: an observer sees every stage of a call as it runs, the execution
// inside it and the end — and a gateway with none decides exactly as one with an observer does.

const log = new ExecutionLog();
const registry = new ToolRegistry().registerAll(sampleTools(log));
const ctx: CallContext = { identity: alice, sessionId: 'obs', domain: 'test' };

function memoryAudit() {
  const records: AuditRecord[] = [];
  return { records, sink: { record: (r: AuditRecord) => records.push(r), flush: async () => {} } };
}

/** An observer that writes down what it sees, in order. */
function recording() {
  const seen: string[] = [];
  const observer: GatewayObserver = {
    call(call, _ctx, tool) {
      seen.push(`call ${call.name}${tool ? '' : ' (unknown)'}`);
      return {
        stage(name) {
          seen.push(`start ${name}`);
          return { end: (d?: StageDecision) => seen.push(`end ${name}${d ? ` ${d.verdict}` : ''}`) };
        },
        async execute(tool, run) {
          seen.push(`execute ${tool}`);
          const r = await run();
          seen.push(`executed ${r.status}`);
          return r;
        },
        end(o) {
          seen.push(`end call ${o.status} ${o.decision.stage}/${o.decision.ruleId} ${o.path.length}`);
        },
      };
    },
  };
  return { seen, observer };
}

describe('the gateway observer port', () => {
  it('sees each stage start and end with its decision, the execution inside, then the call’s end', async () => {
    const { seen, observer } = recording();
    const audit = memoryAudit();
    const gw = new ToolGateway({ tools: registry, audit: audit.sink, observer });
    const r = await gw.invoke({ id: 'c1', name: 'echo', arguments: { text: 'hi' } }, ctx);
    expect(r.status).toBe('executed');
    expect(seen).toEqual([
      'call echo',
      'start schema',
      'end schema allow',
      'start rbac',
      'end rbac allow',
      'start review',
      'end review allow',
      'execute echo',
      'executed executed',
      'end call executed review/review.not-required 3',
    ]);
  });

  it('a refused call ends at its deciding stage, without execution; an unknown tool never reaches a stage', async () => {
    const { seen, observer } = recording();
    const gw = new ToolGateway({ tools: registry, audit: memoryAudit().sink, observer });
    await gw.invoke({ id: 'c2', name: 'payroll_export', arguments: { month: '2026-11' } }, ctx);
    expect(seen.filter((s) => s.startsWith('execute'))).toEqual([]);
    expect(seen.at(-1)).toMatch(/^end call denied rbac\//);
    seen.length = 0;
    await gw.invoke({ id: 'c3', name: 'no_such_tool', arguments: {} }, ctx);
    expect(seen).toEqual(['call no_such_tool (unknown)', 'end call denied access/tool.unavailable 1']);
  });

  it('decides, executes and audits exactly as a gateway without an observer (any arguments)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('echo', 'ledger_read', 'payroll_export', 'explode', 'globex_only', 'unknown'),
        fc.oneof(fc.constant({ text: 'x' }), fc.object(), fc.anything()),
        fc.constantFrom(alice, carol),
        async (tool, args, identity) => {
          const a = memoryAudit();
          const b = memoryAudit();
          const plain = new ToolGateway({ tools: registry, audit: a.sink });
          const seen = new ToolGateway({ tools: registry, audit: b.sink, observer: recording().observer });
          const c = { identity, sessionId: 's', domain: 'test' };
          const x = await plain.invoke({ id: 'p', name: tool, arguments: args }, c);
          const y = await seen.invoke({ id: 'p', name: tool, arguments: args }, c);
          expect(y.status).toBe(x.status);
          expect(y.path).toEqual(x.path);
          expect(y.modelContent).toBe(x.modelContent);
          const strip = (r: AuditRecord) => ({ ...r, id: '', time: '', durationMs: 0 });
          expect(b.records.map(strip)).toEqual(a.records.map(strip));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('the audit record the gateway builds', () => {
  it('records the grant that allowed an executed call, the deciding rule of a refused one', async () => {
    const audit = memoryAudit();
    const gw = new ToolGateway({ tools: registry, audit: audit.sink });
    await gw.invoke({ id: 'a', name: 'echo', arguments: { text: 'hi' } }, ctx);
    await gw.invoke({ id: 'b', name: 'payroll_export', arguments: { month: '2026-11' } }, ctx);
    // Executed: the rbac grant, though review was the last stage it passed.
    expect(audit.records[0]!.decisionPath.at(-1)!.stage).toBe('review');
    expect(audit.records[0]!.decidedBy).toMatchObject({
      stage: 'rbac',
      ruleId: 'rbac.allowed',
      verdict: 'allow',
    });
    expect(audit.records[1]!.decidedBy).toMatchObject({ stage: 'rbac', verdict: 'deny' });
  });

  it('keeps the arguments the redactor returns, and only the hash when it fails', async () => {
    const audit = memoryAudit();
    const redact = auditArgumentRedactor({ level: 'L1' });
    const gw = new ToolGateway({ tools: registry, audit: audit.sink, auditArgs: redact });
    await gw.invoke({ id: 'a', name: 'echo', arguments: { text: 'call 13812345678 now' } }, ctx);
    expect(audit.records[0]!.argsLevel).toBe('L1');
    expect(JSON.stringify(audit.records[0]!.args)).not.toContain('13812345678');
    const failing = new ToolGateway({
      tools: registry,
      audit: audit.sink,
      auditArgs: () => {
        throw new Error('boom');
      },
    });
    const r = await failing.invoke({ id: 'b', name: 'echo', arguments: { text: 'hi' } }, ctx);
    expect(r.status).toBe('executed');
    expect(audit.records[1]!.args).toBeUndefined();
    expect(audit.records[1]!.argsHash).toMatch(/^[0-9a-f]{64}$|^sha256:/);
  });
});

describe('auditArgumentRedactor', () => {
  const tool = {
    name: 'crm',
    argumentTags: { phone: 'pii.phone', 'contacts[].email': 'pii.email' },
    fieldTags: { amount: 'finance.amount' },
  };
  it.each([
    ['L1', undefined, undefined],
    ['L2', 'masked', undefined],
    ['L3', '13812345678', 'a@b.example'],
  ] as const)(
    'at %s: tagged fields by their tag policy, free text by the PII policy',
    (level, phone, email) => {
      const out = auditArgumentRedactor({ level })(tool, {
        phone: '13812345678',
        contacts: [{ email: 'a@b.example' }],
        note: 'resident 110105194912310025',
        amount: 1234,
      }).args as Record<string, unknown>;
      if (phone === undefined) expect(out.phone).toBeUndefined();
      else if (phone === 'masked') expect(String(out.phone)).not.toBe('13812345678');
      else expect(out.phone).toBe(phone);
      const contact = (out.contacts as Record<string, unknown>[])[0]!;
      if (email === undefined)
        expect(contact.email === undefined || contact.email !== 'a@b.example').toBe(true);
      else expect(contact.email).toBe(email);
      expect(String(out.note)).not.toContain('110105194912310025');
      if (level !== 'L3') expect(out.amount).not.toBe(1234);
    },
  );
});
