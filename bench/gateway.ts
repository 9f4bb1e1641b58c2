/**
 * Gateway decision latency: 1,000 registered tools, 200 roles. Measures `gateway.check` (every
 * stage up to, not including, execute) over a mix of allowed, denied and review-bound calls, for
 * two gateways: `foundation` (the bare gateway: lookup, schema, rbac, review) and `pipeline` (what
 * a serve line decides with: the pipeline's `serve.deep` profile as `check` runs it — access,
 * schema, policy with 200 role grants and 40 ABAC rules, parameters, intent, review). Prints one
 * JSON object.
 */
import { z } from 'zod';
import type { DataLevel, Identity } from '../src/core/index.js';
import { type CallContext, type ToolCall, ToolGateway } from '../src/gateway/index.js';
import { checkProfile, Pipeline, PROFILES } from '../src/pipeline/index.js';
import { PolicyEngine, parsePolicyYaml } from '../src/policy/index.js';
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
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
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
const foundation = new ToolGateway({ tools: registry, audit: noAudit });

// A policy as a large deployment writes one: every role granted a few categories, ABAC denies on
// arguments and attributes, date constraints on every tool's range.
const policyYaml = [
  'version: 1',
  'grants:',
  ...roles.map((r, i) => `  ${r}: [${[0, 1, 2, 3].map((k) => `cat_${(i + k * 7) % 20}`).join(', ')}]`),
  'rules:',
  ...Array.from({ length: 40 }, (_, i) =>
    [
      `  - id: abac.rule-${i}`,
      '    effect: deny',
      `    categories: [cat_${i % 20}]`,
      '    when:',
      '      all:',
      `        - { attr: args.region, equals: ${['north', 'south', 'west'][i % 3]} }`,
      `        - not: { attr: principal.roles, contains: role_${i} }`,
    ].join('\n'),
  ),
  'parameters:',
  '  tools:',
  ...Array.from({ length: TOOLS }, (_, i) =>
    [
      `    tool_${i}:`,
      '      from: { date: { maxDaysFromNow: 400 } }',
      '      to: { date: { maxDaysFromNow: 400 } }',
    ].join('\n'),
  ),
].join('\n');
const pipeline = new Pipeline({
  policy: new PolicyEngine(parsePolicyYaml(policyYaml, 'bench.yaml')),
  audit: noAudit,
});
const serveDeep = pipeline.gateway(
  checkProfile(PROFILES['serve.deep']),
  { tools: registry, allow: new Set(registry.list().map((t) => t.name)) },
  { dryRun: true },
);

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
    ? { from: 'yesterday', to: day(0) }
    : { from: day(-30), to: day(0), region: (['east', 'north', 'south', 'west'] as const)[i % 4] };
  const name = i % 101 === 0 ? 'missing_tool' : tool.name;
  // A tenth of the high-risk calls come from a task that declared them.
  const declared = i % 3 === 0 ? [tool.name] : [];
  return {
    call: { id: `c${i}`, name, arguments: args },
    ctx: { identity, sessionId: 'bench', domain: 'deep', declaredCapabilities: declared },
  };
});

async function measure(gateway: ToolGateway) {
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
  return {
    stages: gateway.stages.map((st) => st.name),
    decisionsPerSec: Math.round(SAMPLES / (totalMs / 1000)),
    p50Us: q(0.5),
    p90Us: q(0.9),
    p99Us: q(0.99),
    p999Us: q(0.999),
    maxUs: q(1),
    verdicts,
  };
}

const [load1] = (await import('node:os')).loadavg();
process.stdout.write(
  `${JSON.stringify({
    tools: TOOLS,
    roles: ROLES,
    samples: SAMPLES,
    loadAverage: load1,
    foundation: await measure(foundation),
    pipeline: await measure(serveDeep),
  })}\n`,
);
