/**
 * Gateway decision latency: 1,000 registered tools, 200 roles. Measures `gateway.check` (the
 * pre-execution pipeline: lookup, schema, rbac, review — everything up to, not including,
 * execute) over a mix of allowed, denied and review-bound calls. Prints one JSON object.
 */
import { z } from 'zod';
import type { DataLevel, Identity } from '../src/core/index.js';
import { type CallContext, type ToolCall, ToolGateway } from '../src/gateway/index.js';
import type { AuditSink } from '../src/store/index.js';
import { ToolRegistry, type ToolSpec } from '../src/tools/index.js';

const TOOLS = 1000;
const ROLES = 200;
const WARMUP = 20_000;
const SAMPLES = 200_000;

let seed = 42;
const rand = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const roles = Array.from({ length: ROLES }, (_, i) => `role_${i}`);
const levels: DataLevel[] = ['L1', 'L2', 'L3', 'L4'];

const schema = z.strictObject({
  from: z.iso.date(),
  to: z.iso.date(),
  region: z.enum(['east', 'west', 'north', 'south']).optional(),
  limit: z.number().int().min(1).max(100).default(10),
});

const registry = new ToolRegistry();
for (let i = 0; i < TOOLS; i++) {
  const high = i % 10 === 0;
  const allowed = Array.from(
    { length: 5 + Math.floor(rand() * 20) },
    () => roles[Math.floor(rand() * ROLES)]!,
  );
  const spec: ToolSpec = {
    name: `tool_${i}`,
    description: `benchmark tool ${i}`,
    inputSchema: schema,
    annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
    riskLevel: high ? 'high' : 'low',
    permissions: { allowedRoles: allowed, requiredDataLevel: levels[i % 3]!, category: `cat_${i % 20}` },
    requiresReview: high,
    timeoutMs: 1000,
    execute: async () => ({}),
  };
  registry.register(spec);
}

// The bench never executes, so nothing is audited; the sink only satisfies the constructor.
const noAudit: AuditSink = { record() {}, flush: async () => {} };
const gateway = new ToolGateway({ tools: registry, audit: noAudit });

const identities: Identity[] = Array.from({ length: 50 }, (_, i) => ({
  tenant: 'bench',
  user: `user_${i}`,
  roles: Array.from({ length: 3 }, () => roles[Math.floor(rand() * ROLES)]!),
  dataLevel: levels[i % 4]!,
  attributes: {},
}));
// Give some users the roles of the tools they call so a realistic share is allowed.
const calls: { call: ToolCall; ctx: CallContext }[] = Array.from({ length: 4096 }, (_, i) => {
  const t = Math.floor(rand() * TOOLS);
  const tool = registry.get(`tool_${t}`)!;
  const base = identities[i % identities.length]!;
  const identity =
    i % 2 === 0
      ? { ...base, roles: [...base.roles, tool.permissions.allowedRoles[0]!], dataLevel: 'L4' as const }
      : base;
  const badArgs = i % 7 === 0;
  const args = badArgs
    ? { from: 'yesterday', to: '2026-12-01' }
    : { from: '2026-11-01', to: '2026-11-30', region: 'east' };
  const name = i % 101 === 0 ? 'missing_tool' : tool.name;
  return { call: { id: `c${i}`, name, arguments: args }, ctx: { identity, sessionId: 'bench' } };
});

async function main() {
  for (let i = 0; i < WARMUP; i++) {
    const c = calls[i & 4095]!;
    await gateway.check(c.call, c.ctx);
  }
  const samples = new Float64Array(SAMPLES);
  const verdicts: Record<string, number> = {};
  const started = performance.now();
  for (let i = 0; i < SAMPLES; i++) {
    const c = calls[i & 4095]!;
    const t0 = performance.now();
    const r = await gateway.check(c.call, c.ctx);
    samples[i] = performance.now() - t0;
    const key = `${r.decision.stage}:${r.verdict}`;
    verdicts[key] = (verdicts[key] ?? 0) + 1;
  }
  const totalMs = performance.now() - started;
  const sorted = Float64Array.from(samples).sort();
  const q = (p: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! * 1000 * 100) / 100;
  process.stdout.write(
    `${JSON.stringify({
      tools: TOOLS,
      roles: ROLES,
      samples: SAMPLES,
      decisionsPerSec: Math.round(SAMPLES / (totalMs / 1000)),
      p50Us: q(0.5),
      p90Us: q(0.9),
      p99Us: q(0.99),
      p999Us: q(0.999),
      maxUs: q(1),
      verdicts,
    })}\n`,
  );
}

await main();
